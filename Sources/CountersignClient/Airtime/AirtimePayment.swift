import CountersignAPI
import CountersignCore

/// The seed's airtime purchase: options → local authentication → signature → top-up with the
/// assertion (or, on request, verify → top-up with the verification token: the seed's three calls),
/// falling back to the PIN when the device path cannot finish.
public struct AirtimePayment: Sendable {
    /// Why the device path gave way to the PIN.
    public enum PINFallbackReason: Sendable, Equatable {
        /// The user has no registered device key (`no_registered_credential`).
        case noRegisteredCredential
        /// Local authentication did not succeed (no biometric, cancelled, failed).
        case localAuth(LocalAuthError)
        /// The device could not or would not sign.
        case signing(SigningError)
        /// The server did not accept the assertion; its code, e.g. `bad_signature`.
        case verificationFailed(code: String)
    }

    /// How a purchase was authorized.
    public enum Authorization: Sendable, Equatable {
        /// With the device key's verification token.
        case biometric
        /// With the PIN, after the device path gave way for `reason`.
        case pin(reason: PINFallbackReason)
    }

    /// The device path could not finish and the PIN alone may not pay this intent now: it is over the
    /// server's PIN allowance (what the PIN pays at once, or in all since the last passkey payment).
    /// Only the passkey may; `reason` says why the device path gave way. No PIN was asked for.
    public struct PasskeyRequired: Error, Sendable, Equatable {
        /// Why the device path gave way.
        public var reason: PINFallbackReason

        /// Only the passkey may pay, for `reason`: also what an app's own wallet authorization throws
        /// to have the payment screen say so.
        public init(reason: PINFallbackReason) { self.reason = reason }
    }

    /// A completed purchase.
    public struct Receipt: Sendable, Equatable {
        /// The server's answer to the top-up.
        public var topUp: TopUpResponse
        /// How it was authorized.
        public var authorization: Authorization
    }

    /// How the device's assertion reaches the top-up.
    public enum Calls: Sendable, Equatable {
        /// Options, then the top-up carrying the assertion: one round trip fewer.
        case two
        /// Options, verify (the assertion for a verification token), then the top-up with the token:
        /// the seed's flow.
        case three
    }

    private let client: CountersignAPIClient
    private let device: DeviceApproval
    private let calls: Calls

    /// A purchase flow over `client`, proving presence with `authenticator` and signing with `signer`,
    /// in two calls unless `calls` says three.
    public init(
        client: CountersignAPIClient, authenticator: any LocalAuthenticator, signer: any TransactionSigner,
        calls: Calls = .two
    ) {
        self.client = client
        self.device = DeviceApproval(authenticator: authenticator, signer: signer)
        self.calls = calls
    }

    /// Buys `intent`'s airtime. When the device path cannot finish, `pin` is asked for the PIN with
    /// the reason; nil (the user gave up) returns nil. Where the server said the PIN alone may not pay
    /// this, `PasskeyRequired` is thrown instead of asking. Server refusals other than a failed
    /// verification (e.g. 423 `payment_locked`, `insufficient_funds`) are thrown.
    public func pay(
        _ intent: AuthenticationOptionsRequest, useCashback: Bool? = nil,
        pin: @Sendable (PINFallbackReason) async -> String?
    ) async throws -> Receipt? {
        let fallback: Fallback
        switch try await signedAssertion(for: intent) {
        case .success(let signed):
            switch try await payWithAssertion(intent, useCashback: useCashback, signed) {
            case .success(let receipt): return receipt
            case .failure(let refused): fallback = refused
            }
        case .failure(let refused): fallback = refused
        }
        guard fallback.pinAllowed else { throw PasskeyRequired(reason: fallback.reason) }
        let reason = fallback.reason
        guard let entered = await pin(reason) else { return nil }
        let request = topUp(intent, useCashback: useCashback, pin: entered)
        return Receipt(topUp: try await client.topUp(request), authorization: .pin(reason: reason))
    }

    /// The options' answer and the device's assertion over its challenge.
    private struct Signed {
        var options: AuthenticationOptionsResponse
        var assertion: AuthenticationResponseJSON
    }

    /// The top-up with the assertion, or with the token it earns first; why the PIN must do instead
    /// when the server did not accept the assertion (400 or 401).
    private func payWithAssertion(_ intent: AuthenticationOptionsRequest, useCashback: Bool?, _ signed: Signed)
        async throws -> Result<Receipt, Fallback>
    {
        let pinAllowed = signed.options.pinAllowed ?? true
        switch calls {
        case .three:
            switch try await Self.token(for: signed.assertion, pinAllowed: pinAllowed, client: client) {
            case .success(let token):
                let request = topUp(intent, useCashback: useCashback, verificationToken: token)
                return .success(Receipt(topUp: try await client.topUp(request), authorization: .biometric))
            case .failure(let fallback): return .failure(fallback)
            }
        case .two:
            let request = topUp(intent, useCashback: useCashback, assertion: signed.assertion)
            do {
                return .success(Receipt(topUp: try await client.topUp(request), authorization: .biometric))
            } catch CountersignClientError.api(let status, let code, _, _, _) where status == 400 || status == 401 {
                return .failure(Fallback(reason: .verificationFailed(code: code), pinAllowed: pinAllowed))
            }
        }
    }

    /// Seed steps 1–3: the options and the device's assertion, or why the PIN must be used instead.
    private func signedAssertion(for intent: AuthenticationOptionsRequest) async throws -> Result<Signed, Fallback> {
        let options: AuthenticationOptionsResponse
        do {
            options = try await client.authenticationOptions(intent)
        } catch let error as CountersignClientError where error.errorCode == .noRegisteredCredential {
            return .failure(Fallback(reason: .noRegisteredCredential))
        } catch let error as CountersignClientError where error.errorCode == .strongAuthenticationRequired {
            // No key, and the PIN alone may not pay this: neither path can finish here.
            return .failure(Fallback(reason: .noRegisteredCredential, pinAllowed: false))
        }
        return await Self.assertion(
            answering: options,
            reason: "Buy \(Currency.ngn.format(intent.amount)) of airtime for \(intent.recipientPhone)", device: device
        ).map { Signed(options: options, assertion: $0) }
    }

    /// Seed steps 2–4 for any wallet payment's `options`: local authentication, the signature over
    /// the intent (checked against the challenge first), verify; the token, or why the PIN must do
    /// and whether the options allowed it.
    static func token(
        answering options: AuthenticationOptionsResponse, reason: String, client: CountersignAPIClient,
        device: DeviceApproval
    ) async throws -> Result<String, Fallback> {
        switch await assertion(answering: options, reason: reason, device: device) {
        case .success(let assertion):
            return try await token(for: assertion, pinAllowed: options.pinAllowed ?? true, client: client)
        case .failure(let fallback): return .failure(fallback)
        }
    }

    /// Seed steps 2–3 for any wallet payment's `options`: local authentication and the signature over
    /// the intent (checked against the challenge first); or why the PIN must do, and whether the
    /// options allowed it.
    static func assertion(answering options: AuthenticationOptionsResponse, reason: String, device: DeviceApproval)
        async -> Result<AuthenticationResponseJSON, Fallback>
    {
        let pinAllowed = options.pinAllowed ?? true
        switch await device.approve(reason: reason, sign: { try $0.authorize(airtime: options) }) {
        case .success(let signed): return .success(signed)
        case .failure(.localAuth(let error)):
            return .failure(Fallback(reason: .localAuth(error), pinAllowed: pinAllowed))
        case .failure(.signing(let error)): return .failure(Fallback(reason: .signing(error), pinAllowed: pinAllowed))
        }
    }

    /// Seed step 4: the assertion exchanged for a verification token at `POST /biometric/auth/verify`.
    static func token(for assertion: AuthenticationResponseJSON, pinAllowed: Bool, client: CountersignAPIClient)
        async throws -> Result<String, Fallback>
    {
        let verified: AuthenticationVerifyResponse
        do {
            verified = try await client.verifyAuthentication(assertion)
        } catch CountersignClientError.api(let status, let code, _, _, _) where status == 400 || status == 401 {
            return .failure(Fallback(reason: .verificationFailed(code: code), pinAllowed: pinAllowed))
        }
        guard verified.verified, let token = verified.verificationToken else {
            return .failure(
                Fallback(reason: .verificationFailed(code: verified.code ?? "not_verified"), pinAllowed: pinAllowed))
        }
        return .success(token)
    }

    struct Fallback: Error {
        var reason: PINFallbackReason
        /// What the options said; with no key there were none, and the PIN is the only path.
        var pinAllowed = true
    }

    private func topUp(
        _ intent: AuthenticationOptionsRequest, useCashback: Bool?, verificationToken: String? = nil,
        assertion: AuthenticationResponseJSON? = nil, pin: String? = nil
    ) -> TopUpRequest {
        TopUpRequest(
            amount: intent.amount, productCode: intent.productCode, recipientPhone: intent.recipientPhone,
            supplierSlug: intent.supplierSlug, useCashback: useCashback, verificationToken: verificationToken,
            assertion: assertion, pin: pin
        )
    }
}
