/// What a line of a wallet's history records. The raw values are what the store keeps and what
/// `GET /user/transactions` and the webhooks send as `type`.
public enum WalletTransactionType: String, Sendable, Hashable, Codable, CaseIterable {
    /// An airtime top-up paid from the wallet.
    case topup
    /// Money added to the wallet: by an operator, or through the payment provider.
    case funding
    /// A transfer the wallet's owner sent: the amount and its fees.
    case transferOut = "transfer_out"
    /// A transfer the wallet's owner received.
    case transferIn = "transfer_in"
    /// An operator's reversal of a transfer, given back to its payer.
    case reversalIn = "reversal_in"
    /// An operator's reversal of a transfer, taken back from its payee.
    case reversalOut = "reversal_out"
    /// A marketplace order paid from the wallet.
    case orderPayment = "order_payment"
    /// A refund of an order, given back to the wallet.
    case orderRefund = "order_refund"
}
