import CountersignCore
import CountersignStore
import Foundation

/// Orders, in shared SQL. `bid_id` is UNIQUE: never a second order for one bid.
package struct OrderRepository: Sendable {
    let sql: any SQLExecutor

    /// Inserts `order`; false if the bid has an order already.
    package func insert(_ order: Order) async throws -> Bool {
        let rows = try await sql.query(
            """
            INSERT INTO orders (id, bid_id, product_id, buyer_id, seller_id, status, delivery, address_id, payment_method,
                subtotal, shipping, payment_fee, total, currency, totals, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
            ON CONFLICT (bid_id) DO NOTHING RETURNING id
            """,
            [
                .text(order.id), .text(order.bidId), .text(order.productId), .text(order.buyerId),
                .text(order.sellerId), .text(order.status.rawValue),
                .text(order.delivery), .text(order.addressId), .text(order.paymentMethod.rawValue),
                .integer(order.totals.subtotal),
                .integer(order.totals.shipping), .integer(order.totals.paymentFee), .integer(order.totals.total),
                .text(order.totals.currency),
                .text(try Self.json(order.totals)), .integer(order.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    /// New choices and totals for an order that is still `NEW`; false if it is not.
    package func updateChoices(_ order: Order, now: Int64) async throws -> Bool {
        let rows = try await sql.query(
            """
            UPDATE orders SET delivery = $2, address_id = $3, payment_method = $4, subtotal = $5, shipping = $6, payment_fee = $7, total = $8,
                totals = $9, updated_at = $10
            WHERE id = $1 AND status = 'NEW' RETURNING id
            """,
            [
                .text(order.id), .text(order.delivery), .text(order.addressId), .text(order.paymentMethod.rawValue),
                .integer(order.totals.subtotal),
                .integer(order.totals.shipping), .integer(order.totals.paymentFee), .integer(order.totals.total),
                .text(try Self.json(order.totals)), .integer(now),
            ]
        )
        return !rows.isEmpty
    }

    /// `NEW` → `PAYMENT_PENDING` as payment attempt `attempt`; false if the order is no longer `NEW`
    /// or another request claimed that attempt first.
    package func startPayment(
        orderId: String, attempt: Int64, paymentMethodId: String?, returnURL: String?, now: Int64
    ) async throws -> Bool {
        let move = try OrderStatus.new.boundMove(to: .paymentPending)
        return
            !(try await sql.query(
                """
                UPDATE orders SET status = $7, payment_attempt = $2, payment_method_id = $3, return_url = $4, payment_intent_id = NULL,
                    payment_error_code = NULL, payment_error_message = NULL, updated_at = $5
                WHERE id = $1 AND status = $6 AND payment_attempt = $2 - 1 RETURNING id
                """,
                [
                    .text(orderId), .integer(attempt), .text(paymentMethodId), .text(returnURL), .integer(now),
                    move.from,
                    move.to,
                ]
            )).isEmpty
    }

    /// Records the provider's intent of attempt `attempt`.
    package func recordIntent(orderId: String, attempt: Int64, intentId: String) async throws {
        try await sql.execute(
            "UPDATE orders SET payment_intent_id = $3 WHERE id = $1 AND payment_attempt = $2 AND payment_intent_id IS NULL",
            [.text(orderId), .integer(attempt), .text(intentId)]
        )
    }

    /// Attempt `attempt` failed: `PAYMENT_PENDING` → `NEW` with the reason; false if it was settled already.
    package func failPayment(
        orderId: String, attempt: Int64, code: String, message: String, now: Int64
    ) async throws -> Bool {
        let move = try OrderStatus.paymentPending.boundMove(to: .new)
        return
            !(try await sql.query(
                """
                UPDATE orders SET status = $7, payment_error_code = $3, payment_error_message = $4, updated_at = $5
                WHERE id = $1 AND status = $6 AND payment_attempt = $2 RETURNING id
                """,
                [.text(orderId), .integer(attempt), .text(code), .text(message), .integer(now), move.from, move.to]
            )).isEmpty
    }

    /// Moves the order from `from` to `to`; false if it was no longer in `from`. A move the order
    /// state machine does not have throws `ForbiddenMove`.
    package func move(orderId: String, from: OrderStatus, to: OrderStatus, now: Int64)
        async throws -> Bool
    {
        let move = try from.boundMove(to: to)
        let moved =
            !(try await sql.query(
                "UPDATE orders SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2 RETURNING id",
                [.text(orderId), move.from, move.to, .integer(now)]
            )).isEmpty
        // Every change of an order's status passes here: its webhook commits with it.
        if moved, let order = try await find(id: orderId) {
            try await WebhookOutbox().recordOrder(order, now: now, on: sql)
        }
        return moved
    }

    package func find(id: String) async throws -> Order? {
        try await sql.first("SELECT * FROM orders WHERE id = $1", [.text(id)]).map(Self.order(from:))
    }

    /// Orders in `PAYMENT_PENDING` not changed since `updatedBefore`, oldest first (at most 100).
    package func pending(updatedBefore: Int64) async throws -> [Order] {
        try await sql.query(
            "SELECT * FROM orders WHERE status = 'PAYMENT_PENDING' AND updated_at < $1 ORDER BY updated_at LIMIT 100",
            [.integer(updatedBefore)]
        ).map(Self.order(from:))
    }

    /// The orders a user buys or sells, newest first, at most `limit`.
    package func orders(userId: String, limit: Int) async throws -> [Order] {
        // Two indexed halves rather than one OR, which neither engine serves from an index.
        let buying = try await sql.query(
            "SELECT * FROM orders WHERE buyer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(userId), .integer(Int64(limit))])
        let selling = try await sql.query(
            "SELECT * FROM orders WHERE seller_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(userId), .integer(Int64(limit))])
        var seen = Set<String>()
        let all = try (buying + selling).map(Self.order(from:)).filter { seen.insert($0.id).inserted }
        return Array(all.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.prefix(limit))
    }

    package func find(bidId: String) async throws -> Order? {
        try await sql.first("SELECT * FROM orders WHERE bid_id = $1", [.text(bidId)]).map(Self.order(from:))
    }

    static func order(from row: SQLRow) throws -> Order {
        guard let status = OrderStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        guard let method = PaymentMethodKind(rawValue: try row.string("payment_method")) else {
            throw DatabaseError.decoding(column: "payment_method")
        }
        let totals: CheckoutTotals
        do {
            totals = try JSONDecoder().decode(CheckoutTotals.self, from: Data(try row.string("totals").utf8))
        } catch {
            throw DatabaseError.decoding(column: "totals")
        }
        return Order(
            id: try row.string("id"), bidId: try row.string("bid_id"), productId: try row.string("product_id"),
            buyerId: try row.string("buyer_id"),
            sellerId: try row.string("seller_id"), status: status, delivery: try row.string("delivery"),
            addressId: try row.optionalString("address_id"),
            paymentMethod: method, totals: totals, paymentAttempt: try row.int("payment_attempt"),
            paymentMethodId: try row.optionalString("payment_method_id"),
            returnURL: try row.optionalString("return_url"),
            paymentIntentId: try row.optionalString("payment_intent_id"),
            paymentErrorCode: try row.optionalString("payment_error_code"),
            paymentErrorMessage: try row.optionalString("payment_error_message"),
            refunded: try row.int("refunded"),
            createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at")
        )
    }
}

extension OrderRepository {
    static func json(_ totals: CheckoutTotals) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(totals), as: UTF8.self)
    }
}

extension SQLExecutor {
    /// `OrderRepository` on this connection or transaction.
    package var orders: OrderRepository { OrderRepository(sql: self) }
}
