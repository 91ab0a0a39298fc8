/// Where a refund stands: `pending` until the payment provider returns the money (`succeeded`) or
/// cannot (`failed`, and the money stays where it was).
public enum RefundStatus: String, Codable, Sendable, Hashable, CaseIterable, StatusMachine {
    case pending
    case succeeded
    case failed

    /// The state machine: a pending refund settles once; a settled one never changes.
    public func canMove(to next: RefundStatus) -> Bool {
        self == .pending && next != .pending
    }
}
