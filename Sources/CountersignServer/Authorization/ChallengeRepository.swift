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
        return try row.map(Self.challenge(from:))
    }

    /// The challenge if it is live (unused, unexpired) for this user and purpose, without using it.
    package func find(challenge: String, userId: String, purpose: ChallengePurpose, now: Int64)
        async throws -> StoredChallenge?
    {
        try await sql.first(
            "SELECT * FROM challenges WHERE challenge = $1 AND user_id = $2 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $4",
            [.text(challenge), .text(userId), .text(purpose.rawValue), .integer(now)]
        ).map(Self.challenge(from:))
    }

    static func challenge(from row: SQLRow) throws -> StoredChallenge {
        guard let purpose = ChallengePurpose(rawValue: try row.string("purpose")) else {
            throw DatabaseError.decoding(column: "purpose")
        }
        return StoredChallenge(
            challenge: try row.string("challenge"), userId: try row.string("user_id"), purpose: purpose,
            intent: try row.optionalString("intent"), intentDigest: try row.optionalString("intent_digest"),
            userVerification: try row.string("user_verification"), expiresAt: try row.int("expires_at")
        )
    }
}

extension SQLExecutor {
    /// `ChallengeRepository` on this connection or transaction.
    package var challenges: ChallengeRepository { ChallengeRepository(sql: self) }
}
