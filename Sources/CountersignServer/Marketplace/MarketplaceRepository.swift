import CountersignCore
import CountersignStore

/// Merchants, addresses, products and bids, in shared SQL.
package struct MarketplaceRepository: Sendable {
    let sql: any SQLExecutor

    package func setMerchant(userId: String, _ isMerchant: Bool) async throws {
        try await sql.execute("UPDATE users SET is_merchant = $2 WHERE id = $1", [.text(userId), .bool(isMerchant)])
    }

    package func isMerchant(userId: String) async throws -> Bool {
        try await sql.first("SELECT is_merchant FROM users WHERE id = $1", [.text(userId)])?.bool("is_merchant")
            ?? false
    }

    package func insert(_ address: Address, now: Int64) async throws {
        try await sql.execute(
            "INSERT INTO addresses (id, user_id, name, line1, city, postal_code, country, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [
                .text(address.id), .text(address.userId), .text(address.name), .text(address.line1),
                .text(address.city), .text(address.postalCode), .text(address.country.code), .integer(now),
            ]
        )
    }

    package func addresses(userId: String) async throws -> [Address] {
        try await sql.query("SELECT * FROM addresses WHERE user_id = $1 ORDER BY created_at, id", [.text(userId)]).map {
            row in
            guard let country = Country(try row.string("country")) else {
                throw DatabaseError.decoding(column: "country")
            }
            return Address(
                id: try row.string("id"), userId: try row.string("user_id"), name: try row.string("name"),
                line1: try row.string("line1"),
                city: try row.string("city"), postalCode: try row.string("postal_code"), country: country
            )
        }
    }

    package func insert(_ product: Product, now: Int64) async throws {
        try await sql.execute(
            """
            INSERT INTO products (id, seller_id, title, asking_price, currency, ship_from_country, pickup, shipping_methods, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            [
                .text(product.id), .text(product.sellerId), .text(product.title), .integer(product.askingPrice),
                .text(product.currency),
                .text(product.shipFrom.code), .bool(product.pickup),
                .text(product.shippingMethods.joined(separator: ",")), .integer(now),
            ]
        )
    }

    package func product(id: String) async throws -> Product? {
        guard let row = try await sql.first("SELECT * FROM products WHERE id = $1", [.text(id)]) else { return nil }
        return try Self.product(from: row)
    }

    /// Products newest first, at most `limit`, with whether a bid holds each: all of them, or one
    /// seller's.
    package func products(sellerId: String?, limit: Int) async throws -> [(
        product: Product, held: Bool, sold: Bool
    )] {
        let held =
            "EXISTS (SELECT 1 FROM bids WHERE bids.product_id = products.id AND bids.status IN ('ACCEPTED', 'COMPLETED')) AS held, "
            + "EXISTS (SELECT 1 FROM bids WHERE bids.product_id = products.id AND bids.status = 'COMPLETED') AS sold"
        let rows =
            if let sellerId {
                try await sql.query(
                    "SELECT products.*, \(held) FROM products WHERE seller_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
                    [.text(sellerId), .integer(Int64(limit))])
            } else {
                try await sql.query(
                    "SELECT products.*, \(held) FROM products ORDER BY created_at DESC, id DESC LIMIT $1",
                    [.integer(Int64(limit))])
            }
        return try rows.map { (try Self.product(from: $0), try $0.bool("held"), try $0.bool("sold")) }
    }

    /// The bids on a product, newest first, at most `limit`.
    package func bids(productId: String, limit: Int) async throws -> [Bid] {
        try await sql.query(
            "SELECT bids.*, \(Self.orderIdColumn) FROM bids WHERE product_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(productId), .integer(Int64(limit))]
        )
        .map(Self.bid(from:))
    }

    /// A buyer's bids, newest first, at most `limit`.
    package func bids(buyerId: String, limit: Int) async throws -> [Bid] {
        try await sql.query(
            "SELECT bids.*, \(Self.orderIdColumn) FROM bids WHERE buyer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(buyerId), .integer(Int64(limit))]
        )
        .map(Self.bid(from:))
    }

    static func product(from row: SQLRow) throws -> Product {
        guard let shipFrom = Country(try row.string("ship_from_country")) else {
            throw DatabaseError.decoding(column: "ship_from_country")
        }
        let methods = try row.string("shipping_methods")
        return Product(
            id: try row.string("id"), sellerId: try row.string("seller_id"), title: try row.string("title"),
            askingPrice: try row.int("asking_price"),
            currency: try row.string("currency"), shipFrom: shipFrom, pickup: try row.bool("pickup"),
            shippingMethods: methods.isEmpty ? [] : methods.split(separator: ",").map(String.init)
        )
    }

    /// Whether a bid holds the product: accepted (awaiting payment) or completed (sold).
    package func isHeld(productId: String) async throws -> Bool {
        try await sql.first(
            "SELECT id FROM bids WHERE product_id = $1 AND status IN ('ACCEPTED', 'COMPLETED')", [.text(productId)])
            != nil
    }

    /// Locks the product's row until the transaction ends (`lock` is the engine's `FOR UPDATE`), so a
    /// bid and the sale that ends the open bids take turns: a bid either sees the product sold, or is
    /// there for the sale to end.
    package func lock(productId: String, _ lock: String) async throws {
        _ = try await sql.query("SELECT id FROM products WHERE id = $1\(lock)", [.text(productId)])
    }

    /// Whether the product is sold: a bid on it is paid.
    package func isSold(productId: String) async throws -> Bool {
        try await sql.first("SELECT id FROM bids WHERE product_id = $1 AND status = 'COMPLETED'", [.text(productId)])
            != nil
    }

    /// Inserts a bid; false if the product is sold, or if the bid is `ACCEPTED` and another bid
    /// holds the product.
    package func insert(_ bid: Bid) async throws -> Bool {
        let holding = bid.status == .accepted ? "'ACCEPTED', 'COMPLETED'" : "'COMPLETED'"
        let rows = try await sql.query(
            """
            INSERT INTO bids (id, product_id, buyer_id, amount, currency, status, buy_now, created_at, updated_at)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $8
            WHERE NOT EXISTS (SELECT 1 FROM bids WHERE product_id = $2 AND status IN (\(holding))) RETURNING id
            """,
            [
                .text(bid.id), .text(bid.productId), .text(bid.buyerId), .integer(bid.amount), .text(bid.currency),
                .text(bid.status.rawValue), .bool(bid.buyNow), .integer(bid.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    package func bid(id: String) async throws -> Bid? {
        try await sql.first("SELECT bids.*, \(Self.orderIdColumn) FROM bids WHERE id = $1", [.text(id)]).map(
            Self.bid(from:))
    }

    /// Bids past their time, oldest first (at most 100): `NEW` since before `newBefore`, accepted
    /// since before `acceptedBefore` (a buy-now: `buyNowBefore`).
    package func expirable(newBefore: Int64, acceptedBefore: Int64, buyNowBefore: Int64)
        async throws -> [Bid]
    {
        try await sql.query(
            """
            SELECT * FROM bids
            WHERE (status = 'NEW' AND updated_at < $1)
               OR (status = 'ACCEPTED' AND updated_at < CASE WHEN buy_now = 1 THEN $3 ELSE $2 END)
            ORDER BY updated_at LIMIT 100
            """,
            [.integer(newBefore), .integer(acceptedBefore), .integer(buyNowBefore)]
        ).map(Self.bid(from:))
    }

    /// The bid's order id, as a column of a bid query (`orders.bid_id` is UNIQUE).
    static let orderIdColumn = "(SELECT id FROM orders WHERE orders.bid_id = bids.id) AS order_id"

    static func bid(from row: SQLRow) throws -> Bid {
        guard let status = BidStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        return Bid(
            id: try row.string("id"), productId: try row.string("product_id"), buyerId: try row.string("buyer_id"),
            amount: try row.int("amount"),
            currency: try row.string("currency"), status: status, buyNow: try row.bool("buy_now"),
            closedReason: try row.optionalString("closed_reason").flatMap(BidClosedReason.init(rawValue:)),
            orderId: row["order_id"] == nil ? nil : try row.optionalString("order_id"),
            createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at")
        )
    }

    /// Moves the bid from `from` to `to` (recording why it ended, if it did); false if it was no
    /// longer in `from`, or if `to` is `ACCEPTED` and another bid holds the product. A move the bid
    /// state machine does not have throws `ForbiddenMove`.
    package func move(
        bidId: String, from: BidStatus, to: BidStatus, reason: BidClosedReason? = nil, now: Int64
    ) async throws -> Bool {
        let holding =
            to == .accepted
            ? " AND NOT EXISTS (SELECT 1 FROM bids other WHERE other.product_id = bids.product_id AND other.status IN ('ACCEPTED', 'COMPLETED'))"
            : ""
        let move = try from.boundMove(to: to)
        let rows = try await sql.query(
            "UPDATE bids SET status = $3, updated_at = $4, closed_reason = $5 WHERE id = $1 AND status = $2\(holding) RETURNING id",
            [.text(bidId), move.from, move.to, .integer(now), .text(reason?.rawValue)]
        )
        return !rows.isEmpty
    }

    /// Ends the product's other open bids once `soldBidId` paid for it: their bidders see it sold.
    package func closeOpenBids(productId: String, soldBidId: String, now: Int64) async throws {
        // Every bid the machine may cancel: the open ones.
        let open = BidStatus.boundSources(of: .canceled, first: 6)
        try await sql.execute(
            """
            UPDATE bids SET status = $4, closed_reason = $5, updated_at = $3
            WHERE product_id = $1 AND id <> $2 AND status IN (\(open.placeholders))
            """,
            [
                .text(productId), .text(soldBidId), .integer(now), .text(BidStatus.canceled.rawValue),
                .text(BidClosedReason.sold.rawValue),
            ] + open.values
        )
    }
}

extension SQLExecutor {
    /// `MarketplaceRepository` on this connection or transaction.
    package var marketplace: MarketplaceRepository { MarketplaceRepository(sql: self) }
}
