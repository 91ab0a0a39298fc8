import CountersignAPI

extension BiometricService {
    /// The user's live device keys, oldest first.
    package func credentialList(userId: String) async throws -> CredentialList {
        let stored = try await database.read { sql in try await sql.credentials.list(userId: userId) }
        return CredentialList(credentials: stored.map(\.summary))
    }

    /// Revokes one of the user's keys at once: it authorizes nothing from now on. `unknown_credential`
    /// if the user has no such key (someone else's id answers the same, so ids cannot be probed).
    package func revokeCredential(userId: String, id: String) async throws {
        let now = clock.nowMillis()
        let revoked = try await database.transaction { sql in
            try await sql.credentials.revoke(id: id, userId: userId, now: now)
        }
        guard revoked else { throw APIError(.unknownCredential, "You have no device key with that id.") }
    }
}
