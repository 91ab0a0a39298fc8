/// Where a transfer is in its life. Only the server moves a transfer from one status to the next;
/// clients send commands (authorize, decline, cancel) and watch.
///
/// `PENDING_PAYEE_LOOKUP` → `PENDING_QUOTE` → `AUTHORIZATION_REQUIRED` → `AUTHORIZED` → `SUCCESS`,
/// or an end in `FAILED`, `DECLINED`, `EXPIRED` or `CANCELLED`.
public enum TransferStatus: String, Sendable, Hashable, Codable, CaseIterable, StatusMachine {
    /// The server is finding the payee's wallet.
    case pendingPayeeLookup = "PENDING_PAYEE_LOOKUP"
    /// The server is computing the fees.
    case pendingQuote = "PENDING_QUOTE"
    /// A quote and a challenge wait for the payer's device signature.
    case authorizationRequired = "AUTHORIZATION_REQUIRED"
    /// The signature checked out; the server is moving the money.
    case authorized = "AUTHORIZED"
    /// The money moved: payer to payee, and the fees to the fee account.
    case success = "SUCCESS"
    /// The transfer could not be done; `error` says why. Nothing moved.
    case failed = "FAILED"
    /// The payer refused the fees.
    case declined = "DECLINED"
    /// The quote timed out before the payer authorized it.
    case expired = "EXPIRED"
    /// The payer cancelled before authorizing.
    case cancelled = "CANCELLED"

    /// Whether the transfer has ended: no further change will ever happen.
    public var isFinal: Bool {
        switch self {
        case .success, .failed, .declined, .expired, .cancelled: true
        case .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized: false
        }
    }

    /// Whether the server may move a transfer from this status to `next`: the state machine, and its
    /// only definition.
    public func canMove(to next: TransferStatus) -> Bool {
        switch (self, next) {
        case (.pendingPayeeLookup, .pendingQuote), (.pendingQuote, .authorizationRequired),
            (.authorizationRequired, .authorized), (.authorized, .success):
            true
        case (.pendingPayeeLookup, .failed), (.pendingQuote, .failed), (.authorizationRequired, .failed),
            (.authorized, .failed):
            true
        case (.authorizationRequired, .declined), (.authorizationRequired, .expired):
            true
        case (.pendingPayeeLookup, .cancelled), (.pendingQuote, .cancelled), (.authorizationRequired, .cancelled):
            true
        default:
            false
        }
    }
}
