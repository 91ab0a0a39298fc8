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
        // On PostgreSQL an UPDATE, not a SELECT: it takes the key's row lock, so a revocation
        // committing meanwhile is seen (PostgreSQL re-reads the row) and the two cannot both succeed.
        // SQLite's writers run one at a time, so a read sees every revocation committed before it
        // and none can commit until this transaction has; the UPDATE would only rewrite the row.
        let key = try await sql.first(
            sql.engine == .postgres
                ? """
                UPDATE credentials SET flagged_at = flagged_at
                WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING flagged_at
                """
                : "SELECT flagged_at FROM credentials WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
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

    /// What a payment's token spends, in one PostgreSQL statement: the token (as `consume`), then,
    /// only if it was spent now, the user's PIN allowance if `renewingPinAllowance` (as
    /// `LimitsRepository.renewPinAllowance`) and a lock on `accountIds` (as `LedgerRepository.lock`,
    /// in id order). With `claim`, the idempotency key is claimed before all of it
    /// (`IdempotencyRepository.claimPart`) and the rest runs only if it was: `claimed` false says
    /// nothing was written. Each part runs after the one before it, in that order; the caller's
    /// transaction rolls back unless the answer is `.spent`.
    package func spendPayment(
        jti: String, userId: String, credentialId: String, expiresAt: Int64, now: Int64,
        renewingPinAllowance: Bool, locking accountIds: [String], claiming claim: LinkedClaim? = nil
    ) async throws -> (claimed: Bool, spend: TokenSpend) {
        var binds: [SQLValue] = [
            .text(credentialId), .text(userId), .text(jti), .integer(now), .integer(expiresAt),
            .bool(renewingPinAllowance),
        ]
        let tail = ChallengeRepository.renewingAndLocking(
            after: "spent", user: "$2", renew: "$6", accountIds, binds: &binds)
        let (head, claimed, afterClaim) = ChallengeRepository.claimingFirst(claim, binds: &binds)
        let row = try await sql.first(
            """
            WITH \(head)key AS (
                UPDATE credentials SET flagged_at = flagged_at
                WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL\(afterClaim) RETURNING flagged_at
            ), spent AS (
                INSERT INTO consumed_tokens (jti, user_id, consumed_at, expires_at)
                SELECT $3, $2, $4, $5 WHERE EXISTS (SELECT 1 FROM key WHERE flagged_at IS NULL)
                ON CONFLICT (jti) DO NOTHING RETURNING jti
            \(tail)
            SELECT \(claimed) AS claimed, (SELECT count(*) FROM key) AS found,
                (SELECT count(*) FROM key WHERE flagged_at IS NULL) AS live,
                (SELECT count(*) FROM spent) AS spent, (SELECT count(*) FROM renewed) AS renewed,
                (SELECT count(*) FROM locked) AS locked
            """, binds)
        guard let row, try row.int("claimed") == 1 else { return (false, .keyRevoked) }
        guard try row.int("found") == 1 else { return (true, .keyRevoked) }
        guard try row.int("live") == 1 else { return (true, .keyFlagged) }
        return (true, try row.int("spent") == 1 ? .spent : .replayed)
    }
}

extension SQLExecutor {
    /// `ConsumedTokenRepository` on this connection or transaction.
    package var consumedTokens: ConsumedTokenRepository { ConsumedTokenRepository(sql: self) }
}
