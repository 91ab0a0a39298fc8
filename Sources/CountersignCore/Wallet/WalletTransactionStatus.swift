/// Where a line of a wallet's history stands. Only a top-up or a funding through the provider is
/// ever `pending`, and it moves once, to `completed` or `failed`; every other line is written
/// `completed`. The raw values are what the store keeps and what the API sends as `status`.
public enum WalletTransactionStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Money is held while the supplier or the payment provider answers.
    case pending
    /// The money moved.
    case completed
    /// Nothing stayed debited (or nothing was credited).
    case failed
}
