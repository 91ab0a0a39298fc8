import CountersignStore

/// Single-use, expiring challenges.
package struct ChallengeRepository: Sendable {
    let sql: any SQLExecutor

    package func insert(_ challenge: StoredChallenge, now: Int64) async throws {
        try await sql.execute(
            """
            INSERT INTO challenges (challenge, user_id, purpose, intent, intent_digest, user_verification, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                .text(challenge.challenge), .text(challenge.userId), .text(challenge.purpose.rawValue),
                .text(challenge.intent),
                .text(challenge.intentDigest), .text(challenge.userVerification), .integer(now),
                .integer(challenge.expiresAt),
            ]
        )
    }

    /// Marks the challenge used and returns it, if it exists for this user and purpose, is unused
    /// and unexpired. One statement: two concurrent uses cannot both succeed.
    package func consume(
        challenge: String, userId: String, purpose: ChallengePurpose, now: Int64
    ) async throws -> StoredChallenge? {
        let row = try await sql.first(
            """
            UPDATE challenges SET consumed_at = $4
            WHERE challenge = $1 AND user_id = $2 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $4
            RETURNING *
            """,
            [.text(challenge), .text(userId), .text(purpose.rawValue), .integer(now)]
        )
        return try row.map { try Self.challenge(from: $0) }
    }

    /// What a payment's assertion spends, in one PostgreSQL statement: the payment challenge (as
    /// `consume`), then the key's use (as `CredentialRepository.recordUse`, only if the challenge was
    /// spent), the user's PIN allowance if `renewingPinAllowance` (as
    /// `LimitsRepository.renewPinAllowance`), and a lock on `accountIds` (as `LedgerRepository.lock`,
    /// in id order). Each part runs after the one before it, in that order; the caller's transaction
    /// rolls back unless both `spent` and `used`.
    package func spendPayment(
        challenge: String, userId: String, credentialId: String, signCount: Int64, backupState: Bool,
        renewingPinAllowance: Bool, locking accountIds: [String], claiming claim: LinkedClaim? = nil, now: Int64
    ) async throws -> (claimed: Bool, spent: Bool, used: Bool) {
        var binds: [SQLValue] = [
            .text(challenge), .text(userId), .text(ChallengePurpose.authentication.rawValue), .integer(now),
            .text(credentialId), .integer(signCount), .bool(backupState), .bool(renewingPinAllowance),
        ]
        let tail = Self.renewingAndLocking(after: "used", user: "$2", renew: "$8", accountIds, binds: &binds)
        let (head, claimed, afterClaim) = Self.claimingFirst(claim, binds: &binds)
        let row = try await sql.first(
            """
            WITH \(head)spent AS (
                UPDATE challenges SET consumed_at = $4
                WHERE challenge = $1 AND user_id = $2 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $4\(afterClaim)
                RETURNING challenge
            ), used AS (
                UPDATE credentials SET sign_count = $6, backup_state = $7, last_used_at = $4
                WHERE id = $5 AND EXISTS (SELECT 1 FROM spent) AND flagged_at IS NULL AND revoked_at IS NULL
                    AND (sign_count < $6 OR ($6 = 0 AND sign_count = 0))
                RETURNING id
            \(tail)
            SELECT \(claimed) AS claimed, (SELECT count(*) FROM spent) AS spent, (SELECT count(*) FROM used) AS used,
                (SELECT count(*) FROM renewed) AS renewed, (SELECT count(*) FROM locked) AS locked
            """, binds)
        return (try row?.int("claimed") == 1, try row?.int("spent") == 1, try row?.int("used") == 1)
    }

    /// The idempotency key's claim as the first part of a payment's spending statement on
    /// PostgreSQL, with `claim` (`IdempotencyRepository.claimPart`): `head` to start the `WITH`
    /// with, `claimed` the expression that is 1 if it was made, and `condition` the one to add
    /// to the next part so that it runs only if it was. Without `claim`, none, and `claimed` is 1.
    static func claimingFirst(_ claim: LinkedClaim?, binds: inout [SQLValue])
        -> (head: String, claimed: String, condition: String)
    {
        guard let claim else { return ("", "1", "") }
        let part = IdempotencyRepository.claimPart(claim, binds: &binds)
        return ("\(part), ", "(SELECT count(*) FROM claimed)", " AND EXISTS (SELECT 1 FROM claimed)")
    }

    /// The last two parts of a payment's spending statement on PostgreSQL, after the part `after`
    /// and only if it returned a row: `renewed`, the PIN allowance of the user at `user` deleted if
    /// the value at `renew` is 1, and `locked`, `accountIds` locked in id order (as
    /// `LedgerRepository.lock`). Their ids are appended to `binds`.
    static func renewingAndLocking(
        after: String, user: String, renew: String, _ accountIds: [String], binds: inout [SQLValue]
    ) -> String {
        let ids = Set(accountIds).sorted()
        let list = ids.indices.map { "$\($0 + binds.count + 1)" }.joined(separator: ", ")
        binds += ids.map { .text($0) }
        return """
            ), renewed AS (
                DELETE FROM pin_allowances WHERE user_id = \(user) AND \(renew) = 1 AND EXISTS (SELECT 1 FROM \(after))
                RETURNING user_id
            ), locked AS (
                SELECT id FROM accounts WHERE id IN (\(list.isEmpty ? "NULL" : list)) AND EXISTS (SELECT 1 FROM \(after))
                ORDER BY id FOR UPDATE
            )
            """
    }

    /// The challenge if it is live (unused, unexpired) for this user and purpose, without using it.
    package func find(challenge: String, userId: String, purpose: ChallengePurpose, now: Int64)
        async throws -> StoredChallenge?
    {
        try await sql.first(
            "SELECT * FROM challenges WHERE challenge = $1 AND user_id = $2 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $4",
            [.text(challenge), .text(userId), .text(purpose.rawValue), .integer(now)]
        ).map { try Self.challenge(from: $0) }
    }

    /// `find(challenge:userId:purpose:now:)` and the credential `credentialId` (as
    /// `CredentialRepository.find(id:)`), in one statement: what checking an assertion reads.
    package func findWithCredential(
        challenge: String, userId: String, purpose: ChallengePurpose, now: Int64, credentialId: String
    ) async throws -> (credential: StoredCredential?, challenge: StoredChallenge?) {
        let row = try await sql.first(
            """
            SELECT k.*, c.challenge AS c_challenge, c.user_id AS c_user_id, c.purpose AS c_purpose,
                c.intent AS c_intent, c.intent_digest AS c_intent_digest,
                c.user_verification AS c_user_verification, c.expires_at AS c_expires_at
            FROM (SELECT 1 AS one) AS base
            LEFT JOIN credentials k ON k.id = $5 AND k.revoked_at IS NULL
            LEFT JOIN challenges c ON c.challenge = $1 AND c.user_id = $2 AND c.purpose = $3
                AND c.consumed_at IS NULL AND c.expires_at > $4
            """,
            [.text(challenge), .text(userId), .text(purpose.rawValue), .integer(now), .text(credentialId)])
        guard let row else { return (nil, nil) }
        return (
            try row.optionalString("id") == nil ? nil : CredentialRepository.credential(from: row),
            try row.optionalString("c_challenge") == nil ? nil : Self.challenge(from: row, prefix: "c_")
        )
    }

    /// A challenge from its row, whose columns may carry a `prefix`.
    static func challenge(from row: SQLRow, prefix: String = "") throws -> StoredChallenge {
        guard let purpose = ChallengePurpose(rawValue: try row.string(prefix + "purpose")) else {
            throw DatabaseError.decoding(column: prefix + "purpose")
        }
        return StoredChallenge(
            challenge: try row.string(prefix + "challenge"), userId: try row.string(prefix + "user_id"),
            purpose: purpose, intent: try row.optionalString(prefix + "intent"),
            intentDigest: try row.optionalString(prefix + "intent_digest"),
            userVerification: try row.string(prefix + "user_verification"),
            expiresAt: try row.int(prefix + "expires_at")
        )
    }
}

extension SQLExecutor {
    /// `ChallengeRepository` on this connection or transaction.
    package var challenges: ChallengeRepository { ChallengeRepository(sql: self) }
}
