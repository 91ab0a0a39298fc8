/// Bearer sessions, stored by the SHA-256 of their token.
package protocol SessionRepository: Sendable {
    func create(tokenHash: String, userId: String, now: Int64, expiresAt: Int64, on sql: any SQLExecutor) async throws
    /// The user of a live (unexpired, unrevoked) session.
    func userId(tokenHash: String, now: Int64, on sql: any SQLExecutor) async throws -> String?
    func revoke(tokenHash: String, now: Int64, on sql: any SQLExecutor) async throws
}

/// `SessionRepository` in shared SQL.
package struct SessionSQLRepository: SessionRepository {
    package init() {}

    package func create(tokenHash: String, userId: String, now: Int64, expiresAt: Int64, on sql: any SQLExecutor) async throws {
        try await sql.execute(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            [.text(tokenHash), .text(userId), .integer(now), .integer(expiresAt)]
        )
    }

    package func userId(tokenHash: String, now: Int64, on sql: any SQLExecutor) async throws -> String? {
        try await sql.first(
            "SELECT user_id FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2",
            [.text(tokenHash), .integer(now)]
        )?.string("user_id")
    }

    package func revoke(tokenHash: String, now: Int64, on sql: any SQLExecutor) async throws {
        try await sql.execute("UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL", [.text(tokenHash), .integer(now)])
    }
}
