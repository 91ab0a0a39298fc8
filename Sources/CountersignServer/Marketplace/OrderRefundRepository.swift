import CountersignAPI
import CountersignCore
import CountersignStore

/// Order refunds, in shared SQL. What an order may still refund is guarded on the order row itself
/// (`orders.refunded`), in the transaction that takes the money.
package struct OrderRefundRepository: Sendable {
    let sql: any SQLExecutor

    /// Adds `amount` to the order's refunded total if the order is in one of `statuses` and the
    /// total stays within its price and shipping; returns the order's status, or nil if it did not.
    /// The UPDATE holds the order's row until the transaction ends: parallel refunds of one order
    /// queue here, and each sees the total the one before it left.
    package func reserve(orderId: String, amount: Int64, statuses: [OrderStatus])
        async throws -> OrderStatus?
    {
        let placeholders = statuses.indices.map { "$\($0 + 3)" }.joined(separator: ", ")
        let row = try await sql.first(
            """
            UPDATE orders SET refunded = refunded + $2
            WHERE id = $1 AND status IN (\(placeholders)) AND refunded + $2 <= subtotal + shipping RETURNING status
            """, [.text(orderId), .integer(amount)] + statuses.map { .text($0.rawValue) })
        return try row.flatMap { OrderStatus(rawValue: try $0.string("status")) }
    }

    /// Takes a failed refund's amount off the order's refunded total; returns the order's status.
    package func unreserve(orderId: String, amount: Int64) async throws -> OrderStatus? {
        try await sql.first(
            "UPDATE orders SET refunded = refunded - $2 WHERE id = $1 RETURNING status",
            [.text(orderId), .integer(amount)]
        ).flatMap { OrderStatus(rawValue: try $0.string("status")) }
    }

    package func insert(_ refund: OrderRefund) async throws {
        try await sql.execute(
            """
            INSERT INTO order_refunds (id, order_id, amount, currency, reason, status, requested_by, requested_as,
                from_escrow, from_payable, from_debt, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
            """,
            [
                .text(refund.id), .text(refund.orderId), .integer(refund.amount), .text(refund.currency),
                .text(refund.reason), .text(refund.status.rawValue), .text(refund.requestedBy),
                .text(refund.requestedAs), .integer(refund.fromEscrow), .integer(refund.fromPayable),
                .integer(refund.fromDebt), .integer(refund.createdAt),
            ])
    }

    /// Records the provider's id for the refund, once.
    package func recordProviderRefund(id: String, providerRefundId: String) async throws {
        try await sql.execute(
            "UPDATE order_refunds SET provider_refund_id = $2 WHERE id = $1 AND provider_refund_id IS NULL",
            [.text(id), .text(providerRefundId)])
    }

    /// `pending` → `status`; false if it had settled already (a webhook and a poll racing). A move the
    /// refund state machine does not have throws `ForbiddenMove`.
    package func settle(
        id: String, status: RefundStatus, failureMessage: String?, now: Int64
    ) async throws -> Bool {
        let move = try RefundStatus.pending.boundMove(to: status)
        return
            !(try await sql.query(
                """
                UPDATE order_refunds SET status = $2, failure_message = $3, updated_at = $4
                WHERE id = $1 AND status = $5 RETURNING id
                """, [.text(id), move.to, .text(failureMessage), .integer(now), move.from]
            )).isEmpty
    }

    package func find(id: String) async throws -> OrderRefund? {
        try await sql.first("SELECT * FROM order_refunds WHERE id = $1", [.text(id)]).map(Self.refund(from:))
    }

    package func find(providerRefundId: String) async throws -> OrderRefund? {
        try await sql.first("SELECT * FROM order_refunds WHERE provider_refund_id = $1", [.text(providerRefundId)])
            .map(Self.refund(from:))
    }

    /// The order's refunds, oldest first.
    package func list(orderId: String) async throws -> [OrderRefund] {
        try await sql.query(
            "SELECT * FROM order_refunds WHERE order_id = $1 ORDER BY created_at, id", [.text(orderId)]
        ).map(Self.refund(from:))
    }

    /// Pending refunds not changed since `updatedBefore`, oldest first (at most 100).
    package func pending(updatedBefore: Int64) async throws -> [OrderRefund] {
        try await sql.query(
            "SELECT * FROM order_refunds WHERE status = 'pending' AND updated_at < $1 ORDER BY updated_at LIMIT 100",
            [.integer(updatedBefore)]
        ).map(Self.refund(from:))
    }

    static func refund(from row: SQLRow) throws -> OrderRefund {
        guard let status = RefundStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        return OrderRefund(
            id: try row.string("id"), orderId: try row.string("order_id"), amount: try row.int("amount"),
            currency: try row.string("currency"), reason: try row.string("reason"), status: status,
            requestedBy: try row.string("requested_by"), requestedAs: try row.string("requested_as"),
            fromEscrow: try row.int("from_escrow"), fromPayable: try row.int("from_payable"),
            fromDebt: try row.int("from_debt"), providerRefundId: try row.optionalString("provider_refund_id"),
            failureMessage: try row.optionalString("failure_message"), createdAt: try row.int("created_at"),
            updatedAt: try row.int("updated_at"))
    }
}

extension SQLExecutor {
    /// `OrderRefundRepository` on this connection or transaction.
    package var orderRefunds: OrderRefundRepository { OrderRefundRepository(sql: self) }
}
