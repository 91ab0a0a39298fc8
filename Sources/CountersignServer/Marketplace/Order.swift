import CountersignCore

/// An order for an accepted bid.
package struct Order: Sendable, Equatable {
    package var id: String
    package var bidId: String
    package var productId: String
    package var buyerId: String
    package var sellerId: String
    /// Changed only in the store, by `OrderRepository`'s moves, which the order state machine guards.
    package let status: OrderStatus
    /// `pickup` or a shipping method id.
    package var delivery: String
    package var addressId: String?
    package var paymentMethod: PaymentMethodKind
    package var totals: CheckoutTotals
    /// The number of the current (or last) payment attempt; 0 before the first.
    package var paymentAttempt: Int64 = 0
    /// The saved card of the current attempt, for a card payment.
    package var paymentMethodId: String?
    /// Where a redirect sends the payer back.
    package var returnURL: String?
    /// The provider's intent of the current attempt, once known.
    package var paymentIntentId: String?
    /// Why the last attempt failed.
    package var paymentErrorCode: String?
    package var paymentErrorMessage: String?
    /// What its refunds hold or returned (pending and succeeded), minor units.
    package var refunded: Int64 = 0
    package var createdAt: Int64
    package var updatedAt: Int64
}
