import CountersignStore

/// Bearer sessions, stored by the SHA-256 of their token.
package struct SessionRepository: Sendable {
    let sql: any SQLExecutor

    package func create(
        tokenHash: String, userId: String, origin: SessionOrigin, now: Int64, expiresAt: Int64
    ) async throws {
        try await sql.execute(
            """
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, proof, device_id, cooling_until)
            VALUES ($1, $2, $3, $4, $3, $5, $6, $7)
            """,
            [
                .text(tokenHash), .text(userId), .integer(now), .integer(expiresAt), .text(origin.proof),
                .text(origin.deviceId), .integer(origin.coolingUntil),
            ]
        )
    }

    /// The session if it is live: unrevoked, before its expiry, and seen after `idleBefore`; with
    /// its user's row read in the same statement unless `withUser` is false (a check that needs only
    /// whose session it is, such as an open event stream's, every few seconds).
    package func find(tokenHash: String, now: Int64, idleBefore: Int64, withUser: Bool = true) async throws
        -> LiveSession?
    {
        guard
            let row = try await sql.first(
                """
                SELECT s.user_id AS session_user_id, s.last_seen_at AS session_last_seen_at,
                    s.proof AS session_proof, s.created_at AS session_created_at,
                    s.device_id AS session_device_id, s.cooling_until AS session_cooling_until\(withUser ? ", u.*" : "")
                FROM sessions s\(withUser ? " JOIN users u ON u.id = s.user_id" : "")
                WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3
                """,
                [.text(tokenHash), .integer(now), .integer(idleBefore)]
            )
        else { return nil }
        return LiveSession(
            userId: try row.string("session_user_id"), lastSeenAt: try row.int("session_last_seen_at"),
            proof: try row.string("session_proof"), createdAt: try row.int("session_created_at"),
            deviceId: try row.optionalString("session_device_id"),
            coolingUntil: try row.int("session_cooling_until"),
            user: withUser ? try UserRepository.user(from: row) : nil)
    }

    /// Records that the session was used at `now`.
    package func touch(tokenHash: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2",
            [.text(tokenHash), .integer(now)])
    }

    package func revoke(tokenHash: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL",
            [.text(tokenHash), .integer(now)])
    }

    /// Revokes every live session of the user on the remembered device `deviceId`.
    package func revokeAll(userId: String, deviceId: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND device_id = $2 AND revoked_at IS NULL",
            [.text(userId), .text(deviceId), .integer(now)])
    }

    /// Revokes every live session of the user ("log out everywhere"); returns how many.
    package func revokeAll(userId: String, now: Int64) async throws -> Int {
        try await sql.query(
            "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING token_hash",
            [.text(userId), .integer(now)]
        ).count
    }
}

extension SQLExecutor {
    /// `SessionRepository` on this connection or transaction.
    package var sessions: SessionRepository { SessionRepository(sql: self) }
}
