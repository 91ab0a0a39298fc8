import CountersignStore

/// Verification tokens that have been spent: a token's `jti` may pay once.
package protocol ConsumedTokenRepository: Sendable {
    /// Records the jti as spent; returns false if it was spent already.
    func consume(jti: String, userId: String, expiresAt: Int64, now: Int64, on sql: any SQLExecutor) async throws
        -> Bool
}

/// `ConsumedTokenRepository` in shared SQL.
package struct ConsumedTokenSQLRepository: ConsumedTokenRepository {
    package init() {}

    package func consume(jti: String, userId: String, expiresAt: Int64, now: Int64, on sql: any SQLExecutor)
        async throws -> Bool
    {
        let rows = try await sql.query(
            "INSERT INTO consumed_tokens (jti, user_id, consumed_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING RETURNING jti",
            [.text(jti), .text(userId), .integer(now), .integer(expiresAt)]
        )
        return !rows.isEmpty
    }
}
