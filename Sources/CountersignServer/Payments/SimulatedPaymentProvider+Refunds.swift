import CountersignStore

/// The simulator's refunds: one row each in `sim_refunds`, never more in total than the intent took.
extension SimulatedPaymentProvider {
    package func createRefund(paymentIntentId: String, amount: Int64, idempotencyKey: String) async throws
        -> ProviderRefund
    {
        guard amount > 0, !idempotencyKey.isEmpty else {
            throw ProviderError.invalidRequest("amount must be positive and the idempotency key non-empty.")
        }
        let (id, now) = (Identifier.make("re"), clock.nowMillis())
        let row = try await database.transaction { sql -> SQLRow? in
            if let existing = try await Self.refundRow(idempotencyKey: idempotencyKey, on: sql) { return existing }
            guard
                let intent = try await sql.first(
                    """
                    SELECT i.amount, i.currency, i.status, c.outcome FROM sim_payment_intents i
                    LEFT JOIN sim_cards c ON c.id = i.payment_method_id WHERE i.id = $1
                    """, [.text(paymentIntentId)])
            else { throw ProviderError.intentNotFound(paymentIntentId) }
            guard let status = ProviderIntentStatus(rawValue: try intent.string("status")), status == .succeeded else {
                throw ProviderError.unexpectedState(
                    ProviderIntentStatus(rawValue: try intent.string("status")) ?? .canceled)
            }
            let refunded =
                try await sql.first(
                    """
                    SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM sim_refunds
                    WHERE payment_intent_id = $1 AND status IN ('pending', 'succeeded')
                    """, [.text(paymentIntentId)])?.int("total") ?? 0
            guard refunded + amount <= (try intent.int("amount")) else {
                throw ProviderError.invalidRequest("The refund is more than the payment has left.")
            }
            let pending = try intent.optionalString("outcome") == TestCard.Outcome.refundStaysPending.rawValue
            let inserted = try await sql.first(
                """
                INSERT INTO sim_refunds (id, idempotency_key, payment_intent_id, amount, currency, status, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
                ON CONFLICT (idempotency_key) DO NOTHING RETURNING *
                """,
                [
                    .text(id), .text(idempotencyKey), .text(paymentIntentId), .integer(amount),
                    .text(try intent.string("currency")),
                    .text((pending ? ProviderRefundStatus.pending : .succeeded).rawValue), .integer(now),
                ])
            // A concurrent create with the same key committed first (PostgreSQL waits for it): that one stands.
            if let inserted { return inserted }
            return try await Self.refundRow(idempotencyKey: idempotencyKey, on: sql)
        }
        guard let row else { throw DatabaseError.engine("refund vanished after an idempotency conflict") }
        let refund = try Self.refund(from: row)
        guard refund.paymentIntentId == paymentIntentId, refund.amount == amount else {
            throw ProviderError.idempotencyKeyReused
        }
        return refund
    }

    package func retrieveRefund(id: String) async throws -> ProviderRefund {
        guard
            let row = try await database.read({ sql in
                try await sql.first("SELECT * FROM sim_refunds WHERE id = $1", [.text(id)])
            })
        else { throw ProviderError.refundNotFound(id) }
        return try Self.refund(from: row)
    }

    /// Ends a pending refund, as the bank would: `succeeded`, or `failed` with `failure_reason`. For
    /// tests and the simulator's controls (`/sim/refunds/{id}/succeed|fail`); throws `refundNotFound`,
    /// or `refundNotPending` if it has ended already.
    package func settleRefund(id: String, succeeded: Bool) async throws -> ProviderRefund {
        let now = clock.nowMillis()
        let row = try await database.transaction { sql in
            try await sql.first(
                """
                UPDATE sim_refunds SET status = $2, failure_reason = $3, updated_at = $4
                WHERE id = $1 AND status = 'pending' RETURNING *
                """,
                [
                    .text(id), .text((succeeded ? ProviderRefundStatus.succeeded : .failed).rawValue),
                    .text(succeeded ? nil : "expired_or_canceled_card"), .integer(now),
                ])
        }
        guard let row else {
            _ = try await retrieveRefund(id: id)
            throw ProviderError.refundNotPending
        }
        return try Self.refund(from: row)
    }

    static func refundRow(idempotencyKey: String, on sql: any SQLExecutor) async throws -> SQLRow? {
        try await sql.first("SELECT * FROM sim_refunds WHERE idempotency_key = $1", [.text(idempotencyKey)])
    }

    static func refund(from row: SQLRow) throws -> ProviderRefund {
        guard let status = ProviderRefundStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        return ProviderRefund(
            id: try row.string("id"), paymentIntentId: try row.string("payment_intent_id"),
            amount: try row.int("amount"), currency: try row.string("currency"), status: status,
            failureReason: try row.optionalString("failure_reason"))
    }
}
