import CountersignAPI
import CountersignCore

/// A refund of an order, and where its amount was taken from.
package struct OrderRefund: Sendable, Equatable {
    package var id: String
    package var orderId: String
    package var amount: Int64
    package var currency: String
    package var reason: String
    package var status: RefundStatus
    package var requestedBy: String
    /// `seller` or `operator`.
    package var requestedAs: String
    /// The seller's escrow (before release), payable (after) and, past the payable, their debt.
    package var fromEscrow: Int64
    package var fromPayable: Int64
    package var fromDebt: Int64
    package var providerRefundId: String?
    package var failureMessage: String?
    package var createdAt: Int64
    package var updatedAt: Int64
}
