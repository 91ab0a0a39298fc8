import CountersignStore

/// What spending a verification token came to.
package enum TokenSpend: Sendable, Equatable {
    /// Spent now: the payment may go ahead.
    case spent
    /// Spent before: a token pays once.
    case replayed
    /// The key that signed was revoked (or is not the user's) since the token was issued.
    case keyRevoked
    /// The key that signed was disabled by a security check since the token was issued.
    case keyFlagged
}

/// Verification tokens that have been spent: a token's `jti` may pay once, and only while the key
/// that earned it is live.
package struct ConsumedTokenRepository: Sendable {
    let sql: any SQLExecutor

    /// Records the jti as spent if `credentialId`, the key that signed for it, is still `userId`'s,
    /// unrevoked and unflagged.
    package func consume(
        jti: String, userId: String, credentialId: String, expiresAt: Int64, now: Int64
    ) async throws -> TokenSpend {
        // An UPDATE, not a SELECT: it takes the key's row lock, so a revocation committing meanwhile
        // is seen (PostgreSQL re-reads the row) and the two cannot both succeed.
        let key = try await sql.first(
            """
            UPDATE credentials SET flagged_at = flagged_at
            WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING flagged_at
            """,
            [.text(credentialId), .text(userId)]
        )
        guard let key else { return .keyRevoked }
        guard try key.optionalInt("flagged_at") == nil else { return .keyFlagged }
        let rows = try await sql.query(
            "INSERT INTO consumed_tokens (jti, user_id, consumed_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING RETURNING jti",
            [.text(jti), .text(userId), .integer(now), .integer(expiresAt)]
        )
        return rows.isEmpty ? .replayed : .spent
    }
}

extension SQLExecutor {
    /// `ConsumedTokenRepository` on this connection or transaction.
    package var consumedTokens: ConsumedTokenRepository { ConsumedTokenRepository(sql: self) }
}
