import CountersignAPI

/// What the marketplace screens list: products for sale, a seller's products and the bids on
/// them, a buyer's bids, a user's orders. Newest first, at most `limit` (1 to 100).
extension MarketplaceService {
    static func checkLimit(_ limit: Int) throws {
        guard (1...100).contains(limit) else { throw APIError(.invalidLimit, "limit must be between 1 and 100.") }
    }

    /// Every product, or the caller's own (`sellerId`), with whether each is still available.
    package func products(sellerId: String?, limit: Int) async throws -> ProductList {
        try Self.checkLimit(limit)
        let rows = try await database.read { sql in
            try await sql.marketplace.products(sellerId: sellerId, limit: limit)
        }
        return ProductList(products: rows.map { response($0.product, available: !$0.held, sold: $0.sold) })
    }

    /// The bids on a product, for its seller only (404 `product_not_found` for anyone else, as
    /// for a product that does not exist).
    package func bids(sellerId: String, productId: String, limit: Int) async throws -> BidList {
        try Self.checkLimit(limit)
        let bids = try await database.read { sql -> [Bid]? in
            guard productId.utf8.count <= 64, let product = try await sql.marketplace.product(id: productId),
                product.sellerId == sellerId
            else { return nil }
            return try await sql.marketplace.bids(productId: productId, limit: limit)
        }
        guard let bids else { throw APIError(.productNotFound, "No such product of yours.") }
        return BidList(bids: bids.map(response))
    }

    /// The caller's own bids.
    package func bids(buyerId: String, limit: Int) async throws -> BidList {
        try Self.checkLimit(limit)
        return BidList(
            bids: try await database.read { sql in try await sql.marketplace.bids(buyerId: buyerId, limit: limit) }
                .map(response))
    }

    /// The orders the caller buys or sells.
    package func orders(userId: String, limit: Int) async throws -> OrderList {
        try Self.checkLimit(limit)
        return OrderList(
            orders: try await database.read { sql in
                var views: [OrderResponse] = []
                for order in try await sql.orders.orders(userId: userId, limit: limit) {
                    views.append(try await view(order, for: userId, on: sql))
                }
                return views
            })
    }
}
