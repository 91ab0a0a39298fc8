import CountersignCore

/// A bid on a product.
package struct Bid: Sendable, Equatable {
    package var id: String
    package var productId: String
    package var buyerId: String
    package var amount: Int64
    package var currency: String
    /// Changed only by `moved(to:reason:now:)` here and by `MarketplaceRepository.move` in the
    /// store, both guarded by the bid state machine.
    package let status: BidStatus
    package var buyNow: Bool
    /// Why it ended, when it ended without a sale to its bidder and the reason was recorded.
    package var closedReason: BidClosedReason? = nil
    /// Its order, if it has one (read with the bid; a bid has at most one).
    package var orderId: String? = nil
    package var createdAt: Int64
    package var updatedAt: Int64

    /// This bid moved to `status` at `now`, ended for `reason` if given; throws if the bid state
    /// machine does not have the move.
    package func moved(to status: BidStatus, reason: BidClosedReason?, now: Int64) throws(ForbiddenMove<BidStatus>)
        -> Bid
    {
        var next = self.status
        try next.move(to: status)
        return Bid(
            id: id, productId: productId, buyerId: buyerId, amount: amount, currency: currency, status: next,
            buyNow: buyNow, closedReason: reason, orderId: orderId, createdAt: createdAt, updatedAt: now)
    }
}
