import CountersignAPI
import CountersignCore

extension MarketplaceService {
    /// Creates the order for the buyer's accepted bid, or returns the one it has: a `NEW` order takes
    /// the new choices and totals; an order whose payment is under way is returned as it is. Never a
    /// second order for one bid (`orders.bid_id` is UNIQUE). `created` tells which.
    package func placeOrder(buyerId: String, _ request: CheckoutTotalsRequest) async throws -> (
        order: OrderResponse, created: Bool
    ) {
        let (bid, product, totals) = try await checkout(buyerId: buyerId, request)
        let now = clock.nowMillis()
        let fresh = Order(
            id: Identifier.make("ord"), bidId: bid.id, productId: product.id, buyerId: buyerId,
            sellerId: product.sellerId, status: .new,
            delivery: request.delivery, addressId: request.delivery == "pickup" ? nil : request.addressId,
            paymentMethod: request.paymentMethod,
            totals: totals, createdAt: now, updatedAt: now
        )
        let (order, created) = try await database.transaction { sql -> (Order, Bool) in
            if try await sql.orders.insert(fresh) { return (fresh, true) }
            guard var existing = try await sql.orders.find(bidId: bid.id) else {
                throw APIError(.orderBusy, "The order is changing; try again.")
            }
            guard existing.status.isOpen else {
                throw APIError(.orderClosed, "This bid's order is \(existing.status.rawValue).")
            }
            if existing.status == .new {
                (existing.delivery, existing.addressId, existing.paymentMethod, existing.totals) = (
                    fresh.delivery, fresh.addressId, fresh.paymentMethod, totals
                )
                if try await sql.orders.updateChoices(existing, now: now) { existing.updatedAt = now }
            }
            return (existing, false)
        }
        let shown = try await database.read { sql in try await view(order, for: buyerId, on: sql) }
        return (shown, created)
    }

    /// The order, for its buyer or the seller; 404 for anyone else.
    package func order(userId: String, id: String) async throws -> OrderResponse {
        let found = try await database.read { sql -> OrderResponse? in
            guard id.utf8.count <= 64, let order = try await sql.orders.find(id: id),
                order.buyerId == userId || order.sellerId == userId
            else { return nil }
            return try await view(order, for: userId, on: sql)
        }
        guard let found else { throw APIError(.orderNotFound, "No such order.") }
        return found
    }

    /// The order of the buyer's bid: its open one, or the last it had (a bid has at most one, so the
    /// payment screen can resume it). 404 `bid_not_found` unless the caller is the bid's buyer,
    /// `order_not_found` when the bid has no order yet.
    package func order(buyerId: String, bidId: String) async throws -> OrderResponse {
        let (bid, _) = try await buyersBid(buyerId: buyerId, id: bidId)
        let found = try await database.read { sql -> OrderResponse? in
            guard let order = try await sql.orders.find(bidId: bid.id) else { return nil }
            return try await view(order, for: buyerId, on: sql)
        }
        guard let found else { throw APIError(.orderNotFound, "This bid has no order yet.") }
        return found
    }
}
