import CountersignAPI
import CountersignCore

/// Authenticates the payer on the device, signs the quote's challenge, sends the authorization and
/// shows the server's verdict (seed steps 8–15 and 17).
///
/// It never claims success or failure without the server's word: when the connection is lost and
/// reconnecting does not bring it back, it shows `statusUnknown` with the transfer id.
public final class PaymentVerdictController: PaymentScreen {
    /// What the screen shows.
    public enum State: Sendable, Equatable {
        /// Nothing yet.
        case idle
        /// The device prompt (biometric or device PIN) is up.
        case authenticating
        /// The device is signing the challenge.
        case signing
        /// The assertion is on its way, or the server's verdict is awaited.
        case authorizing(transferId: String)
        /// The money moved.
        case succeeded(TransferDocument)
        /// The server refused or could not complete the transfer, e.g. `authorization_failed`.
        case failed(transferId: String, reason: TransferFailure)
        /// The quote lapsed before it was authorized.
        case expired(transferId: String)
        /// Local authentication did not succeed; the transfer was cancelled (seed step 17).
        case abandoned(transferId: String, LocalAuthError)
        /// The device refused to sign what it was asked to (e.g. a challenge that is not the quote's);
        /// the transfer was cancelled.
        case securityError(transferId: String, SigningError)
        /// Too many failed payment authorizations; retry after that many seconds.
        case locked(transferId: String, retryAfter: Int?)
        /// The transfer ended otherwise (declined or cancelled elsewhere).
        case ended(TransferDocument)
        /// The server's verdict could not be obtained; check the transfer later.
        case statusUnknown(transferId: String)
    }

    /// What the screen shows, for a view to render.
    public let screen = ScreenState<State>(.idle)
    private let repository: TransactionRepository
    private let device: DeviceApproval

    /// A controller that proves presence with `authenticator`, signs with `signer` and talks to
    /// the server through `repository`.
    public init(repository: TransactionRepository, authenticator: any LocalAuthenticator, signer: any TransactionSigner)
    {
        self.repository = repository
        self.device = DeviceApproval(authenticator: authenticator, signer: signer)
    }

    /// Runs the verdict screen for the `AUTHORIZATION_REQUIRED` `document` the payer agreed to,
    /// and returns the state it ends in.
    @discardableResult
    public func authorize(_ document: TransferDocument) async -> State {
        await screen.run { [self] in
            screen.set(await verdict(for: document))
        }
        return screen.value
    }

    /// Clears the verdict and stops watching the transfer.
    public func reset() { screen.reset() }

    private func verdict(for document: TransferDocument) async -> State {
        let id = document.id
        guard let quote = document.quote, let challenge = document.challenge else {
            return .securityError(transferId: id, .inconsistentQuote)
        }
        screen.set(.authenticating)
        let approval = await device.approve(
            reason: "Send \(Currency.named(quote.currency).format(quote.total)) to \(quote.payeePhone)",
            willSign: { screen.set(.signing) },
            sign: { try $0.authorize(quote: quote, challenge: challenge) }
        )
        let assertion: AuthenticationResponseJSON
        switch approval {
        case .success(let signed):
            assertion = signed
        case .failure(let refusal):
            // Nothing was signed: cancelling ends the transfer now instead of when its quote lapses.
            _ = try? await repository.cancel(id)
            switch refusal {
            case .localAuth(let error): return .abandoned(transferId: id, error)
            case .signing(let error): return .securityError(transferId: id, error)
            }
        }
        screen.set(.authorizing(transferId: id))
        let after: Int64?
        do {
            let answer = try await repository.authorize(id, assertion: assertion)
            if answer.status.isFinal { return Self.state(for: answer) }
            after = answer.sequence
        } catch {
            let refusal = CountersignClientError(error)
            switch (refusal.errorCode, refusal) {
            case (.authorizationFailed?, .api(_, let code, let message, _, _)):
                return .failed(transferId: id, reason: TransferFailure(code: code, message: message))
            case (.quoteExpired?, _):
                return .expired(transferId: id)
            case (.paymentLocked?, .api(_, _, _, let retryAfter, _)):
                return .locked(transferId: id, retryAfter: retryAfter)
            default:
                // No answer, or a state conflict: the stream tells where the transfer really is.
                after = nil
            }
        }
        return await awaitVerdict(id, after: after)
    }

    /// Seed steps 12–13: the verdict arrives on the transfer's event stream.
    private func awaitVerdict(_ id: String, after: Int64?) async -> State {
        do {
            for try await document in repository.documents(id, after: after) where document.status.isFinal {
                return Self.state(for: document)
            }
        } catch {}
        return .statusUnknown(transferId: id)
    }

    static func state(for document: TransferDocument) -> State {
        switch document.status {
        case .success: .succeeded(document)
        case .failed:
            .failed(
                transferId: document.id,
                reason: document.error ?? TransferFailure(code: "failed", message: "The transfer failed."))
        case .expired: .expired(transferId: document.id)
        case .declined, .cancelled: .ended(document)
        case .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized:
            .statusUnknown(transferId: document.id)
        }
    }
}
