/// Why money moved: a ledger entry's kind, with the raw value `ledger_transactions.kind` stores.
public enum LedgerEntryKind: String, Sendable, Hashable, CaseIterable {
    /// An airtime top-up paid from the wallet, and its reversal when the supplier failed.
    case topup
    case topupReversal = "topup_reversal"
    /// Cashback earned on a top-up.
    case cashback
    /// An operator's funding of a wallet (`countersign wallet fund`, the console), and its reversal.
    case funding
    case fundingReversal = "funding_reversal"
    /// Money paid in through the payment provider.
    case walletFunding = "wallet_funding"
    /// A transfer between wallets, its fees included, and an operator's reversal of it.
    case transfer
    case transferReversal = "transfer_reversal"
    /// A marketplace order paid into escrow, and released to the seller.
    case orderPayment = "order_payment"
    case orderRelease = "order_release"
    /// A refund of an order: held, settled by the provider, or failed and put back.
    case orderRefund = "order_refund"
    case orderRefundSettled = "order_refund_settled"
    case orderRefundFailed = "order_refund_failed"
}
