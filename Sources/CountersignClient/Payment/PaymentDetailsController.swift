import CountersignAPI
import CountersignCore
import Synchronization

/// Shows the quoted fees and takes the payer's choice (seed steps 2–7 and 16).
public final class PaymentDetailsController: PaymentScreen {
    /// What the screen shows.
    public enum State: Sendable, Equatable {
        /// Nothing to show yet.
        case idle
        /// The fees to agree to: amount, fee lines, total fees, total, currency and expiry are the quote's.
        case reviewing(quote: TransferQuote, payeeName: String?)
        /// The quote's figures do not add up (or it is missing), so it is never offered; the
        /// transfer was cancelled.
        case invalidQuote(transferId: String)
        /// The refusal is being sent.
        case declining
        /// The payer refused the fees; the server's document says `DECLINED`.
        case declined(TransferDocument)
        /// The refusal could not be recorded; the quote will lapse on its own.
        case declineFailed(transferId: String, CountersignClientError)
    }

    /// Where the payer goes next.
    public enum Next: Sendable, Equatable {
        /// On to `PaymentVerdictController` with this document.
        case verdict(TransferDocument)
        /// Back to the dashboard through `PaymentFinalizeController`.
        case dashboard
    }

    /// What the screen shows, for a view to render.
    public let screen = ScreenState<State>(.idle)
    private let repository: TransactionRepository
    private let shown = Mutex<TransferDocument?>(nil)

    /// A controller sending the payer's choice through `repository`.
    public init(repository: TransactionRepository) {
        self.repository = repository
    }

    /// Shows the quote of `document` (seed steps 2–3). Returns false, having cancelled the transfer,
    /// when there is no consistent quote and challenge to offer.
    @discardableResult
    public func present(_ document: TransferDocument) async -> Bool {
        guard document.status == .authorizationRequired, let quote = document.quote, document.challenge != nil,
            quote.isConsistent, quote.transferId == document.id
        else {
            shown.withLock { $0 = nil }
            _ = try? await repository.cancel(document.id)
            screen.set(.invalidQuote(transferId: document.id))
            return false
        }
        shown.withLock { $0 = document }
        screen.set(.reviewing(quote: quote, payeeName: document.payeeName))
        return true
    }

    /// The payer's answer (seed steps 5–7, 16): agreeing goes on to the verdict; refusing declines
    /// the transfer on the server and goes back to the dashboard.
    public func choose(proceed: Bool) async -> Next {
        guard let document = shown.withLock({ $0 }) else { return .dashboard }
        if proceed { return .verdict(document) }
        screen.set(.declining)
        await screen.run { [screen, repository] in
            do {
                screen.set(.declined(try await repository.decline(document.id)))
            } catch {
                screen.set(.declineFailed(transferId: document.id, CountersignClientError(error)))
            }
        }
        return .dashboard
    }

    /// Clears the quote shown.
    public func reset() {
        shown.withLock { $0 = nil }
        screen.reset()
    }
}
