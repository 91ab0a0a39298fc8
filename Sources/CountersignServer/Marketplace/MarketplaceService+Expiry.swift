import CountersignCore

/// How long a bid waits for the seller, and an accepted bid for its payment, before it expires and
/// the product can be bid on again.
package struct MarketplaceTimeouts: Sendable, Equatable {
    /// A `NEW` bid the seller has not accepted (default 7 days).
    package var bidSeconds: Int64 = 7 * 86_400
    /// An accepted bid with no payment (default 48 hours).
    package var acceptedSeconds: Int64 = 48 * 3_600
    /// A buy-now with no payment (default 30 minutes): a buyer who walked away, or an app that
    /// stopped before it could withdraw the bid, does not hold the product longer.
    package var buyNowSeconds: Int64 = 30 * 60

    package init() {}
}

extension MarketplaceService {
    /// Expires bids past their time: a `NEW` bid; an accepted one with its order (if any) still
    /// `NEW`, order and bid together. An order whose payment is under way is left to the pending
    /// sweep; once that attempt fails the next pass expires it. Each bid moves in its own guarded
    /// transaction, so a seller accepting, a buyer paying or another process sweeping at the same
    /// moment either wins or loses whole. Returns how many bids expired.
    @discardableResult
    package func expireStale() async throws -> Int {
        let now = clock.nowMillis()
        let candidates = try await database.read { sql in
            try await sql.marketplace.expirable(
                newBefore: now - timeouts.bidSeconds * 1000, acceptedBefore: now - timeouts.acceptedSeconds * 1000,
                buyNowBefore: now - timeouts.buyNowSeconds * 1000
            )
        }
        var expired = 0
        for bid in candidates {
            let moved: Bool
            do {
                moved = try await database.transaction { sql in
                    if bid.status == .accepted, let order = try await sql.orders.find(bidId: bid.id) {
                        if order.status == .paymentPending { return false }
                        if order.status == .new {
                            guard try await sql.orders.move(orderId: order.id, from: .new, to: .expired, now: now)
                            else { return false }
                        }
                    }
                    // The order is expired already: if the bid moved meanwhile, undo that too.
                    guard try await sql.marketplace.move(bidId: bid.id, from: bid.status, to: .expired, now: now)
                    else { throw BidMovedMeanwhile() }
                    return true
                }
            } catch is BidMovedMeanwhile {
                moved = false
            }
            if moved { expired += 1 }
        }
        return expired
    }
}

/// Rolls back an expiry whose bid was accepted, withdrawn or paid between the read and the write.
private struct BidMovedMeanwhile: Error {}
