/// The system accounts on the other side of users' money. Their balances are derived from their
/// postings rather than cached, so concurrent payments don't all update one hot row.
package enum SystemAccount {
    /// Money that entered from outside (operator funding); goes negative by design.
    package static func funding(_ currency: String) -> String { "sys:funding:\(currency)" }
    /// Money owed to airtime suppliers for purchases made.
    package static func supplierClearing(_ currency: String) -> String { "sys:supplier_clearing:\(currency)" }
    /// Cashback paid out; goes negative by design.
    package static func cashbackExpense(_ currency: String) -> String { "sys:cashback_expense:\(currency)" }
    /// Fees earned on transfers.
    package static func transferFees(_ currency: String) -> String { "sys:transfer_fees:\(currency)" }
    /// Money payment providers collected from buyers and owe us; goes negative by design (an asset).
    package static func providerClearing(_ currency: String) -> String { "sys:provider_clearing:\(currency)" }
    /// Payment-method fees charged to buyers at checkout.
    package static func paymentFees(_ currency: String) -> String { "sys:payment_fees:\(currency)" }
    /// Order refunds asked of the payment provider and not yet settled: out of the seller's reach,
    /// so they can be neither released nor refunded twice.
    package static func refundClearing(_ currency: String) -> String { "sys:refund_clearing:\(currency)" }
    /// Every system account id for `currency`.
    package static func all(_ currency: String) -> [String] {
        [
            funding(currency), supplierClearing(currency), cashbackExpense(currency), transferFees(currency),
            providerClearing(currency), paymentFees(currency), refundClearing(currency),
        ]
    }
}
