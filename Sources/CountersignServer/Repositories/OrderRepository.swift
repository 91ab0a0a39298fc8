import CountersignCore
import Foundation

/// An order for an accepted bid.
package struct Order: Sendable, Equatable {
    package var id: String
    package var bidId: String
    package var productId: String
    package var buyerId: String
    package var sellerId: String
    package var status: OrderStatus
    /// `pickup` or a shipping method id.
    package var delivery: String
    package var addressId: String?
    package var paymentMethod: PaymentMethodKind
    package var totals: CheckoutTotals
    package var createdAt: Int64
    package var updatedAt: Int64
}

/// Orders, in shared SQL. `bid_id` is UNIQUE: never a second order for one bid.
package struct OrderSQLRepository: Sendable {
    package init() {}

    /// Inserts `order`; false if the bid has an order already.
    package func insert(_ order: Order, on sql: any SQLExecutor) async throws -> Bool {
        let rows = try await sql.query(
            """
            INSERT INTO orders (id, bid_id, product_id, buyer_id, seller_id, status, delivery, address_id, payment_method,
                subtotal, shipping, payment_fee, total, currency, totals, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
            ON CONFLICT (bid_id) DO NOTHING RETURNING id
            """,
            [
                .text(order.id), .text(order.bidId), .text(order.productId), .text(order.buyerId), .text(order.sellerId), .text(order.status.rawValue),
                .text(order.delivery), .text(order.addressId), .text(order.paymentMethod.rawValue), .integer(order.totals.subtotal),
                .integer(order.totals.shipping), .integer(order.totals.paymentFee), .integer(order.totals.total), .text(order.totals.currency),
                .text(try Self.json(order.totals)), .integer(order.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    /// New choices and totals for an order that is still `NEW`; false if it is not.
    package func updateChoices(_ order: Order, now: Int64, on sql: any SQLExecutor) async throws -> Bool {
        let rows = try await sql.query(
            """
            UPDATE orders SET delivery = $2, address_id = $3, payment_method = $4, subtotal = $5, shipping = $6, payment_fee = $7, total = $8,
                totals = $9, updated_at = $10
            WHERE id = $1 AND status = 'NEW' RETURNING id
            """,
            [
                .text(order.id), .text(order.delivery), .text(order.addressId), .text(order.paymentMethod.rawValue), .integer(order.totals.subtotal),
                .integer(order.totals.shipping), .integer(order.totals.paymentFee), .integer(order.totals.total), .text(try Self.json(order.totals)), .integer(now),
            ]
        )
        return !rows.isEmpty
    }

    /// Moves the order from `from` to `to`; false if it was no longer in `from`.
    package func move(orderId: String, from: OrderStatus, to: OrderStatus, now: Int64, on sql: any SQLExecutor) async throws -> Bool {
        !(try await sql.query(
            "UPDATE orders SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2 RETURNING id",
            [.text(orderId), .text(from.rawValue), .text(to.rawValue), .integer(now)]
        )).isEmpty
    }

    package func find(id: String, on sql: any SQLExecutor) async throws -> Order? {
        try await sql.first("SELECT * FROM orders WHERE id = $1", [.text(id)]).map(Self.order(from:))
    }

    package func find(bidId: String, on sql: any SQLExecutor) async throws -> Order? {
        try await sql.first("SELECT * FROM orders WHERE bid_id = $1", [.text(bidId)]).map(Self.order(from:))
    }

    static func order(from row: SQLRow) throws -> Order {
        guard let status = OrderStatus(rawValue: try row.string("status")) else { throw DatabaseError.decoding(column: "status") }
        guard let method = PaymentMethodKind(rawValue: try row.string("payment_method")) else { throw DatabaseError.decoding(column: "payment_method") }
        let totals: CheckoutTotals
        do {
            totals = try JSONDecoder().decode(CheckoutTotals.self, from: Data(try row.string("totals").utf8))
        } catch {
            throw DatabaseError.decoding(column: "totals")
        }
        return Order(
            id: try row.string("id"), bidId: try row.string("bid_id"), productId: try row.string("product_id"), buyerId: try row.string("buyer_id"),
            sellerId: try row.string("seller_id"), status: status, delivery: try row.string("delivery"), addressId: try row.optionalString("address_id"),
            paymentMethod: method, totals: totals, createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at")
        )
    }
}

extension OrderSQLRepository {
    static func json(_ totals: CheckoutTotals) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(totals), as: UTF8.self)
    }
}
