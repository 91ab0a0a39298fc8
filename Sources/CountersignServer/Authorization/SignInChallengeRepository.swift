import CountersignStore

/// The challenges of passkey sign-in: single-use, short-lived, bound to no user.
package struct SignInChallengeRepository: Sendable {
    let sql: any SQLExecutor

    /// Stores a new challenge, and drops the ones that expired (anyone may ask for one, so they
    /// must not pile up).
    package func insert(
        challenge: String, userVerification: String, now: Int64, expiresAt: Int64
    ) async throws {
        try await sql.execute("DELETE FROM sign_in_challenges WHERE expires_at <= $1", [.integer(now)])
        try await sql.execute(
            "INSERT INTO sign_in_challenges (challenge, user_verification, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            [.text(challenge), .text(userVerification), .integer(now), .integer(expiresAt)]
        )
    }

    /// Marks the challenge used and returns its user-verification requirement, if it was live.
    package func consume(challenge: String, now: Int64) async throws -> String? {
        try await sql.first(
            """
            UPDATE sign_in_challenges SET consumed_at = $2
            WHERE challenge = $1 AND consumed_at IS NULL AND expires_at > $2
            RETURNING user_verification
            """,
            [.text(challenge), .integer(now)]
        ).map { try $0.string("user_verification") }
    }
}

extension SQLExecutor {
    /// `SignInChallengeRepository` on this connection or transaction.
    package var signInChallenges: SignInChallengeRepository { SignInChallengeRepository(sql: self) }
}
