import CountersignCore
import CountersignStore

/// `wallet_fundings` in shared SQL. Every move out of `pending` is guarded by the status, so a
/// webhook, a poll and the sweeper racing move a funding once.
package struct FundingRepository: Sendable {
    let sql: any SQLExecutor

    func insert(_ f: Funding) async throws {
        try await sql.execute(
            """
            INSERT INTO wallet_fundings (id, user_id, amount, currency, method, payment_method_id, return_url, status,
                created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
            """,
            [
                .text(f.id), .text(f.userId), .integer(f.amount), .text(f.currency), .text(f.method.rawValue),
                .text(f.paymentMethodId), .text(f.returnURL), .text(f.status.rawValue), .integer(f.createdAt),
            ])
    }

    func find(id: String) async throws -> Funding? {
        try await sql.first("SELECT * FROM wallet_fundings WHERE id = $1", [.text(id)]).map(Self.funding(from:))
    }

    /// Pending fundings not touched since `updatedBefore`, oldest first.
    func pending(updatedBefore: Int64) async throws -> [Funding] {
        try await sql.query(
            "SELECT * FROM wallet_fundings WHERE status = 'pending' AND updated_at < $1 ORDER BY updated_at LIMIT 100",
            [.integer(updatedBefore)]
        ).map(Self.funding(from:))
    }

    /// Records the provider's intent, once.
    func recordIntent(id: String, intentId: String) async throws {
        try await sql.execute(
            "UPDATE wallet_fundings SET payment_intent_id = $2 WHERE id = $1 AND payment_intent_id IS NULL",
            [.text(id), .text(intentId)])
    }

    /// Moves a pending funding to `status`; false if it was not pending (someone else moved it). A
    /// move the funding state machine does not have throws `ForbiddenMove`.
    func finish(
        id: String, status: FundingStatus, error: ProviderPaymentError?, now: Int64
    ) async throws -> Bool {
        let move = try FundingStatus.pending.boundMove(to: status)
        let rows = try await sql.query(
            """
            UPDATE wallet_fundings SET status = $2, error_code = $3, error_message = $4, updated_at = $5
            WHERE id = $1 AND status = $6 RETURNING id
            """,
            [.text(id), move.to, .text(error?.code), .text(error?.message), .integer(now), move.from])
        return !rows.isEmpty
    }

    /// What the user's fundings still pending in `currency` add up to, minor units.
    func pendingTotal(userId: String, currency: String) async throws -> Int64 {
        try await sql.first(
            """
            SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM wallet_fundings
            WHERE user_id = $1 AND currency = $2 AND status = 'pending'
            """, [.text(userId), .text(currency)]
        )?.int("total") ?? 0
    }

    static func funding(from row: SQLRow) throws -> Funding {
        guard let method = PaymentMethodKind(rawValue: try row.string("method")) else {
            throw DatabaseError.decoding(column: "method")
        }
        guard let status = FundingStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        return Funding(
            id: try row.string("id"), userId: try row.string("user_id"), amount: try row.int("amount"),
            currency: try row.string("currency"), method: method,
            paymentMethodId: try row.optionalString("payment_method_id"),
            returnURL: try row.optionalString("return_url"), status: status,
            paymentIntentId: try row.optionalString("payment_intent_id"),
            errorCode: try row.optionalString("error_code"), errorMessage: try row.optionalString("error_message"),
            createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at"))
    }
}

extension SQLExecutor {
    /// `FundingRepository` on this connection or transaction.
    package var fundings: FundingRepository { FundingRepository(sql: self) }
}
