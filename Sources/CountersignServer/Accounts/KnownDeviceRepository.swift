import CountersignStore

/// Remembered devices, stored by the SHA-256 of their token (the device keeps the token; a stolen
/// database row cannot be replayed as one).
package struct KnownDeviceRepository: Sendable {
    let sql: any SQLExecutor

    package func insert(
        id: String, tokenHash: String, userId: String, label: String, now: Int64, coolingUntil: Int64
    ) async throws {
        try await sql.execute(
            """
            INSERT INTO known_devices (id, token_hash, user_id, label, created_at, last_used_at, cooling_until)
            VALUES ($1, $2, $3, $4, $5, $5, $6)
            """,
            [.text(id), .text(tokenHash), .text(userId), .text(label), .integer(now), .integer(coolingUntil)])
    }

    /// The user's live device whose token hashes to `tokenHash`.
    package func find(tokenHash: String, userId: String) async throws -> KnownDevice? {
        try await sql.first(
            "SELECT * FROM known_devices WHERE token_hash = $1 AND user_id = $2 AND revoked_at IS NULL",
            [.text(tokenHash), .text(userId)]
        ).map(Self.device(from:))
    }

    package func touch(id: String, now: Int64) async throws {
        try await sql.execute("UPDATE known_devices SET last_used_at = $2 WHERE id = $1", [.text(id), .integer(now)])
    }

    /// The user's live devices, most recently used first.
    package func list(userId: String) async throws -> [KnownDevice] {
        try await sql.query(
            "SELECT * FROM known_devices WHERE user_id = $1 AND revoked_at IS NULL ORDER BY last_used_at DESC, id",
            [.text(userId)]
        ).map(Self.device(from:))
    }

    /// Forgets one of the user's devices; false if they have no such live device.
    package func revoke(id: String, userId: String, now: Int64) async throws -> Bool {
        try await sql.first(
            "UPDATE known_devices SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id",
            [.text(id), .text(userId), .integer(now)]) != nil
    }

    /// Forgets every device of the user (a PIN reset, a change of number).
    package func revokeAll(userId: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE known_devices SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            [.text(userId), .integer(now)])
    }

    static func device(from row: SQLRow) throws -> KnownDevice {
        KnownDevice(
            id: try row.string("id"), userId: try row.string("user_id"), label: try row.string("label"),
            createdAt: try row.int("created_at"), lastUsedAt: try row.int("last_used_at"),
            coolingUntil: try row.int("cooling_until"))
    }
}

extension SQLExecutor {
    /// `KnownDeviceRepository` on this connection or transaction.
    package var knownDevices: KnownDeviceRepository { KnownDeviceRepository(sql: self) }
}
