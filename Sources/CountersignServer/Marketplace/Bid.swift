import CountersignCore

/// A bid on a product.
package struct Bid: Sendable, Equatable {
    package var id: String
    package var productId: String
    package var buyerId: String
    package var amount: Int64
    package var currency: String
    package var status: BidStatus
    package var buyNow: Bool
    /// Why it ended, when it ended without a sale to its bidder and the reason was recorded.
    package var closedReason: BidClosedReason? = nil
    /// Its order, if it has one (read with the bid; a bid has at most one).
    package var orderId: String? = nil
    package var createdAt: Int64
    package var updatedAt: Int64
}
