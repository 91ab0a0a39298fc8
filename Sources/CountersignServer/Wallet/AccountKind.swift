/// The kinds of account the ledger holds.
package enum AccountKind: String, Sendable {
    /// A user's spendable balance; never negative.
    case wallet
    /// A user's cashback balance; never negative.
    case cashback
    /// What a seller has been paid for orders not yet completed: held until the buyer confirms
    /// receipt; never negative.
    case escrow
    /// What a seller has earned on completed orders, owed to them until paid out; never negative.
    case payable
    /// What a seller owes us: refunds of completed orders beyond their payable, which we paid. The
    /// one user account allowed below zero (an asset, like the provider's clearing account); zero or
    /// negative.
    case receivable
}
