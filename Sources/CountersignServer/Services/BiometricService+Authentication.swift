import CountersignAPI
import WebAuthn

/// A refusal at `POST /biometric/auth/verify`, which answers in the seed's shape
/// `{verified: false, message, code}` rather than the general error body.
package struct VerificationFailure: Error, Sendable {
    package let error: APIError
}

extension BiometricService {
    /// WebAuthn §7.2 for a payment: the assertion must answer a live challenge this user was issued
    /// for an intent, from a credential the user owns; on success a single-use token bound to that
    /// intent is returned.
    package func verifyAuthentication(userId: String, _ body: AuthenticationResponseJSON) async throws -> AuthenticationVerifyResponse {
        do {
            return try await verifyAssertion(userId: userId, body)
        } catch let error as APIError {
            throw VerificationFailure(error: error)
        }
    }

    private func verifyAssertion(userId: String, _ body: AuthenticationResponseJSON) async throws -> AuthenticationVerifyResponse {
        guard body.type == "public-key" else { throw APIError.badRequest("invalid_type", "type must be public-key.") }
        let rawId = try Self.decode(body.rawId, field: "rawId")
        let credentialId = Base64URL.encode(rawId)
        guard body.id == credentialId else { throw APIError.badRequest("id_mismatch", "id must be the base64url of rawId.") }
        let clientData = try Self.decode(body.response.clientDataJSON, field: "response.clientDataJSON")
        let authenticatorData = try Self.decode(body.response.authenticatorData, field: "response.authenticatorData")
        let signature = try Self.decode(body.response.signature, field: "response.signature")
        let challengeText = try Self.challenge(in: clientData)

        let user = try await loadUser(userId)
        try lock.ensureUnlocked(user)
        let (credentials, challenges, now) = (self.credentials, self.challenges, clock.nowMillis())
        // The challenge is spent before the signature is checked: a failed attempt burns it too.
        let (credential, challenge) = try await database.transaction { sql -> (StoredCredential?, StoredChallenge?) in
            guard let credential = try await credentials.find(id: credentialId, on: sql), credential.userId == userId else { return (nil, nil) }
            let challenge = try await challenges.consume(challenge: challengeText, userId: userId, purpose: .authentication, now: now, on: sql)
            return (credential, challenge)
        }
        // WebAuthn §7.2 steps 5–6: the credential must be one this user registered.
        guard let credential else {
            throw APIError(.unauthorized, "unknown_credential", "That credential is not registered to this user.")
        }
        guard credential.flaggedAt == nil else {
            throw APIError(.unauthorized, "credential_flagged", "This credential was disabled after a security check; register it again.")
        }
        guard let challenge, let expected = Base64URL.decode(challenge.challenge), let digest = challenge.intentDigest else {
            throw APIError(.unauthorized, "invalid_challenge", "The challenge is unknown, expired or already used.")
        }
        let verified: VerifiedAssertion
        switch checkAssertion(credential: credential, challenge: expected, userVerificationRequired: challenge.userVerification == "required",
                              clientData: clientData, authenticatorData: authenticatorData, signature: signature) {
        case .success(let assertion):
            verified = assertion
        case .failure(let error) where error.isMalformedInput:
            throw APIError.badRequest(error.code.rawValue, error.message)
        case .failure(let error):
            if error.code == .signCountRegression {
                try await flag(credential, reason: error.code.rawValue, now: now)
            }
            let refusal = try await lock.recordFailure(userId: userId, failure: APIError(.unauthorized, error.code.rawValue, "Signature verification failed."))
            throw refusal
        }
        // WebAuthn §6.1.3: backup eligibility is fixed when the credential is created.
        guard verified.flags.backupEligible == credential.backupEligible else {
            let refusal = try await lock.recordFailure(userId: userId, failure: APIError(.unauthorized, "backup_eligibility_changed", "Signature verification failed."))
            throw refusal
        }
        let users = self.users
        let recorded = try await database.transaction { sql in
            let recorded = try await credentials.recordUse(id: credential.id, signCount: Int64(verified.signCount), backupState: verified.flags.backupState, now: now, on: sql)
            if recorded { try await users.resetPaymentFailures(userId: userId, on: sql) }
            return recorded
        }
        guard recorded else {
            // Another assertion moved the counter past ours meanwhile: a replay or a cloned key.
            try await flag(credential, reason: WebAuthnError.Code.signCountRegression.rawValue, now: now)
            let refusal = try await lock.recordFailure(userId: userId, failure: APIError(.unauthorized, WebAuthnError.Code.signCountRegression.rawValue, "Signature verification failed."))
            throw refusal
        }
        let (token, _) = try await tokens.issue(
            userId: userId, intentDigest: digest, credentialId: credential.id, now: now,
            lifetimeSeconds: configuration.verificationTokenSeconds
        )
        return AuthenticationVerifyResponse(
            verified: true, verificationToken: token, expiresIn: Int(configuration.verificationTokenSeconds),
            message: "Authentication successful", code: nil, retryAfter: nil
        )
    }

    /// Runs the verifier (WebAuthn §7.2 steps 7–21) against the stored key.
    private func checkAssertion(credential: StoredCredential, challenge: [UInt8], userVerificationRequired: Bool, clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) -> Result<VerifiedAssertion, WebAuthnError> {
        Result { () throws(WebAuthnError) -> VerifiedAssertion in
            let publicKey = try CredentialPublicKey(cose: Base64URL.decode(credential.publicKey) ?? [])
            return try assertionVerifier.verify(
                clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                expectedChallenge: challenge, credentialPublicKey: publicKey,
                storedSignCount: UInt32(clamping: credential.signCount), userVerificationRequired: userVerificationRequired
            )
        }
    }

    private func flag(_ credential: StoredCredential, reason: String, now: Int64) async throws {
        let credentials = self.credentials
        try await database.transaction { sql in try await credentials.flag(id: credential.id, reason: reason, now: now, on: sql) }
    }
}
