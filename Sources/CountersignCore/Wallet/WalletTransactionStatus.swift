/// Where a line of a wallet's history stands. Only a top-up or a funding through the provider is
/// ever `pending`, and it moves once, to `completed` or `failed`; every other line is written
/// `completed`. The raw values are what the store keeps and what the API sends as `status`.
public enum WalletTransactionStatus: String, Sendable, Hashable, Codable, CaseIterable, StatusMachine {
    /// Money is held while the supplier or the payment provider answers.
    case pending
    /// The money moved.
    case completed
    /// Nothing stayed debited (or nothing was credited).
    case failed

    /// Whether a line may move from this status to `next`: `pending` ends once, either way.
    public func canMove(to next: WalletTransactionStatus) -> Bool {
        self == .pending && next != .pending
    }
}
