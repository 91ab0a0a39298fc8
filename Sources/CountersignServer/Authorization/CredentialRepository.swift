import CountersignStore

/// Credentials by user.
package struct CredentialRepository: Sendable {
    let sql: any SQLExecutor

    /// Inserts a credential; throws `credential_exists` if the id is registered already (to anyone).
    package func insert(_ credential: StoredCredential, aaguid: String, now: Int64)
        async throws
    {
        let rows = try await sql.query(
            """
            INSERT INTO credentials (id, user_id, public_key, algorithm, sign_count, backup_eligible, backup_state, transports,
                attestation_format, attestation_verified, aaguid, created_at, bound_by, cooling_until)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT (id) DO NOTHING RETURNING id
            """,
            [
                .text(credential.id), .text(credential.userId), .text(credential.publicKey),
                .integer(credential.algorithm),
                .integer(credential.signCount), .bool(credential.backupEligible), .bool(credential.backupState),
                .text(credential.transports.joined(separator: ",")), .text(credential.attestationFormat),
                .bool(credential.attestationVerified), .text(aaguid), .integer(now), .text(credential.boundBy),
                .integer(credential.coolingUntil),
            ]
        )
        guard !rows.isEmpty else { throw APIError(.credentialExists, "That credential is already registered.") }
    }

    package func find(id: String) async throws -> StoredCredential? {
        try await sql.first("SELECT * FROM credentials WHERE id = $1 AND revoked_at IS NULL", [.text(id)]).map(
            Self.credential(from:))
    }

    package func list(userId: String) async throws -> [StoredCredential] {
        try await sql.query(
            "SELECT * FROM credentials WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id",
            [.text(userId)]
        ).map(Self.credential(from:))
    }

    /// Records a successful assertion. Returns false if another assertion advanced the counter
    /// past `signCount` first (a concurrent replay or a cloned key).
    package func recordUse(id: String, signCount: Int64, backupState: Bool, now: Int64)
        async throws -> Bool
    {
        // A counter of 0 means the authenticator keeps none; otherwise it must only rise.
        let rows = try await sql.query(
            """
            UPDATE credentials SET sign_count = $2, backup_state = $3, last_used_at = $4
            WHERE id = $1 AND flagged_at IS NULL AND revoked_at IS NULL AND (sign_count < $2 OR ($2 = 0 AND sign_count = 0)) RETURNING id
            """,
            [.text(id), .integer(signCount), .bool(backupState), .integer(now)]
        )
        return !rows.isEmpty
    }

    /// Records the backup-state flag an assertion carried without recording a use (a payment its
    /// policy refused, whose challenge stays open).
    package func recordBackupState(id: String, backupState: Bool) async throws {
        try await sql.execute(
            "UPDATE credentials SET backup_state = $2 WHERE id = $1 AND revoked_at IS NULL",
            [.text(id), .bool(backupState)])
    }

    package func flag(id: String, reason: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE credentials SET flagged_at = $2, flagged_reason = $3 WHERE id = $1 AND flagged_at IS NULL",
            [.text(id), .integer(now), .text(reason)]
        )
    }

    /// Revokes the user's credential; false if they have no such live credential. A revoked
    /// credential is neither found nor listed, and authorizes nothing.
    package func revoke(id: String, userId: String, now: Int64) async throws -> Bool {
        let rows = try await sql.query(
            "UPDATE credentials SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id",
            [.text(id), .text(userId), .integer(now)]
        )
        return !rows.isEmpty
    }

    static func credential(from row: SQLRow) throws -> StoredCredential {
        let transports = try row.string("transports")
        return StoredCredential(
            id: try row.string("id"), userId: try row.string("user_id"), publicKey: try row.string("public_key"),
            algorithm: try row.int("algorithm"), signCount: try row.int("sign_count"),
            backupEligible: try row.bool("backup_eligible"), backupState: try row.bool("backup_state"),
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init),
            attestationFormat: try row.string("attestation_format"),
            attestationVerified: try row.bool("attestation_verified"),
            flaggedAt: try row.optionalInt("flagged_at"), createdAt: try row.int("created_at"),
            lastUsedAt: try row.optionalInt("last_used_at"), boundBy: try row.string("bound_by"),
            coolingUntil: try row.int("cooling_until")
        )
    }
}

extension SQLExecutor {
    /// `CredentialRepository` on this connection or transaction.
    package var credentials: CredentialRepository { CredentialRepository(sql: self) }
}
