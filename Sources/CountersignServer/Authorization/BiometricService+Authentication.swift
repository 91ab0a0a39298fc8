import CountersignAPI
import CountersignStore
import NIOPosix
import WebAuthn

/// A refusal at `POST /biometric/auth/verify`, which answers in the seed's shape
/// `{verified: false, message, code}` rather than the general error body.
package struct VerificationFailure: Error, Sendable {
    package let error: APIError
}

extension BiometricService {
    /// WebAuthn §7.2 for a payment: the assertion must answer a live challenge this user was issued
    /// for an intent, from a credential the user owns; on success a single-use token bound to that
    /// intent is returned. The user read with `session`, if any, is not read again.
    package func verifyAuthentication(userId: String, _ body: AuthenticationResponseJSON, session: LiveSession? = nil)
        async throws -> AuthenticationVerifyResponse
    {
        do {
            let (credential, digest, userVerified, _) = try await verifyAssertion(
                userId: userId, body, for: .payment, user: session?.user(userId))
            let token = tokens.issue(
                userId: userId, intentDigest: digest, credentialId: credential.id, userVerified: userVerified,
                keyCoolingUntil: credential.coolingUntil, now: clock.nowMillis(),
                lifetimeSeconds: configuration.verificationTokenSeconds
            )
            metrics.authorization(factor: "biometric", outcome: "accepted")
            metrics.tokenIssued()
            return AuthenticationVerifyResponse(
                verified: true, verificationToken: token, expiresIn: Int(configuration.verificationTokenSeconds),
                message: "Authentication successful", code: nil, retryAfter: nil
            )
        } catch let error as APIError {
            metrics.authorization(factor: "biometric", outcome: error.code.rawValue)
            throw VerificationFailure(error: error)
        }
    }

    /// WebAuthn §7.2 for a payment whose assertion comes with the payment itself (`POST /user/topup`
    /// with `assertion`): every check `verifyAuthentication` makes, the challenge issued for exactly
    /// `intentDigest` (another intent's is refused before anything is spent), and the claims a
    /// token would have carried, never signed or sent; the payment's transaction spends them as it
    /// spends a token's (or, where `spend` is given, spends the challenge itself); with the key that
    /// signed, as it stood when checked. `user` is the payer as the caller just read them.
    func paymentClaims(user: User, _ body: AuthenticationResponseJSON, intentDigest: String) async throws
        -> (claims: VerificationClaims, key: StoredCredential, spend: AssertionSpend?)
    {
        do {
            let (credential, digest, userVerified, spend) = try await verifyAssertion(
                userId: user.id, body, for: .payment, intentDigest: intentDigest, user: user, deferSpend: true)
            metrics.authorization(factor: "biometric", outcome: "accepted")
            let now = clock.nowMillis()
            let claims = VerificationClaims(
                sub: user.id, jti: Identifier.make("vt"), iat: now / 1000,
                exp: now / 1000 + configuration.verificationTokenSeconds, aud: VerificationTokens.audience,
                dig: digest, cid: credential.id, uv: userVerified, cool: credential.coolingUntil)
            return (claims, credential, spend)
        } catch let error as APIError {
            metrics.authorization(factor: "biometric", outcome: error.code.rawValue)
            throw error
        }
    }

    /// What an assertion's challenge must have been issued for.
    enum AssertionPurpose {
        /// A payment intent: any authentication challenge but a step-up one.
        case payment
        /// Adding a device key (`StepUp.intentDigest`).
        case stepUp
    }

    /// Verifies `body` against a live authentication challenge of this user issued for `purpose`
    /// and returns the credential that signed, the digest of the intent the challenge covered, and
    /// whether the authenticator verified the user. With `intentDigest`, a challenge issued for
    /// another intent is 403 `intent_mismatch`, and is left unspent for the payment it was for.
    /// `user`, when the caller has just read them, is not read again. With `deferSpend`, a verified
    /// assertion the passkey policy accepts is not spent here: the returned `AssertionSpend` is for
    /// the caller's transaction to spend.
    func verifyAssertion(
        userId: String, _ body: AuthenticationResponseJSON, for purpose: AssertionPurpose, intentDigest: String? = nil,
        user known: User? = nil, deferSpend: Bool = false
    ) async throws -> (credential: StoredCredential, intentDigest: String, userVerified: Bool, spend: AssertionSpend?) {
        let decoded = try DecodedAssertion(body)
        let (credentialId, clientData, authenticatorData, signature, challengeText) =
            (decoded.credentialId, decoded.clientData, decoded.authenticatorData, decoded.signature, decoded.challenge)

        let now = clock.nowMillis()
        let (user, credential, challenge) = try await database.read {
            sql -> (User?, StoredCredential?, StoredChallenge?) in
            let user: User?
            if let known { user = known } else { user = try await sql.users.find(id: userId) }
            guard let user else { return (nil, nil, nil) }
            let (credential, challenge) = try await sql.challenges.findWithCredential(
                challenge: challengeText, userId: userId, purpose: .authentication, now: now,
                credentialId: credentialId)
            return (user, credential, challenge)
        }
        guard let user else { throw APIError.unauthenticated }
        try lock.ensureUnlocked(user)
        // WebAuthn §7.2 steps 5–6: the credential must be one this user registered.
        guard let credential, credential.userId == userId else {
            throw APIError(.unknownCredential, "That credential is not registered to this user.")
        }
        guard credential.flaggedAt == nil else {
            throw APIError(
                .credentialFlagged, "This credential was disabled after a security check; register it again.")
        }
        guard let challenge, let expected = Base64URL.decode(challenge.challenge), let digest = challenge.intentDigest,
            (digest == StepUp.intentDigest) == (purpose == .stepUp)
        else {
            throw APIError(.invalidChallenge, "The challenge is unknown, expired or already used.")
        }
        if let intentDigest, digest != intentDigest {
            throw APIError(.intentMismatch, "The assertion answers the challenge of a different payment.")
        }
        // Secure Payment Confirmation (`payment.get`) only on the payment path, checked against what
        // the challenge's intent showed; a step-up accepts `webauthn.get` alone.
        let shown = try await purpose == .payment ? paymentConfirmation(challenge) : nil
        let result = try await checkAssertion(
            credential: credential, challenge: expected,
            userVerificationRequired: challenge.userVerification == "required",
            clientData: clientData, authenticatorData: authenticatorData, signature: signature, payment: shown
        )
        // WebAuthn §6.1.3: backup eligibility is fixed when the credential is created.
        let refusal: WebAuthnError? =
            switch result {
            case .failure(let error): error
            case .success(let verified) where verified.flags.backupEligible != credential.backupEligible:
                WebAuthnError(.invalidBackupFlags, "backup eligibility differs from registration")
            case .success: nil
            }
        if let refusal {
            // A failed attempt spends the challenge too, and counts towards the lock unless the
            // request was merely malformed.
            let response = try await database.transaction { sql -> APIError in
                // Spent meanwhile: a concurrent copy of this request won, and moved the counter
                // this one now finds behind. The owner's own race: nothing is counted or flagged.
                guard
                    try await sql.challenges.consume(
                        challenge: challenge.challenge, userId: userId, purpose: .authentication, now: now)
                        != nil
                else { return APIError(.invalidChallenge, "The challenge is unknown, expired or already used.") }
                if refusal.isMalformedInput { return APIError(refusal) }
                if refusal.code == .signCountRegression {
                    try await sql.credentials.flag(id: credential.id, reason: refusal.code.rawValue, now: now)
                }
                return try await lock.recordFailure(
                    userId: userId, failure: APIError(refusal, message: "Signature verification failed."), on: sql)
            }
            throw response
        }
        guard case .success(let verified) = result else { throw APIError.authorizationFailed }
        let policy = configuration.passkeyPolicy
        if deferSpend, purpose == .payment, policy.paymentRefusal(flags: verified.flags) == nil {
            let spend = AssertionSpend(
                challenge: challenge.challenge, userId: userId, credential: credential,
                signCount: Int64(verified.signCount), backupState: verified.flags.backupState)
            return (credential, digest, verified.flags.userVerified, spend)
        }
        // One transaction on success: spend the challenge (a concurrent replay of the same
        // assertion loses here), advance the counter, clear the failure count. A counter found
        // behind still spends the challenge. With no failures to clear, PostgreSQL does it in one
        // statement without `BEGIN` and `COMMIT`.
        let spend = AssertionSpend(
            challenge: challenge.challenge, userId: userId, credential: credential,
            signCount: Int64(verified.signCount), backupState: verified.flags.backupState)
        let clearFailures = user.failedPaymentAuths > 0
        let record: @Sendable (any SQLExecutor) async throws -> APIError? = { sql in
            do {
                _ = try await spend.spend(now: now, renewingPinAllowance: false, locking: [], on: sql)
            } catch is AssertionSpend.CounterBehind {
                return APIError(.signCountRegression, "Signature verification failed.")
            }
            // The use and its backup state are recorded first: a refusal by policy is not a
            // failed authentication, and counts nothing towards the lock.
            if purpose == .payment, let refusal = policy.paymentRefusal(flags: verified.flags) { return refusal }
            if clearFailures { try await sql.users.resetPaymentFailures(userId: userId) }
            return nil
        }
        let outcome =
            database.engine == .postgres && !clearFailures
            ? try await database.single(record) : try await database.transaction(record)
        if let outcome {
            if outcome.code == .signCountRegression {
                // Another assertion moved the counter past ours meanwhile: a replay or a cloned key.
                try await flag(credential, reason: outcome.code.rawValue, now: now)
                throw try await lock.recordFailure(userId: userId, failure: outcome)
            }
            throw outcome
        }
        return (credential, digest, verified.flags.userVerified, nil)
    }

    /// Runs the verifier (WebAuthn §7.2 steps 7–21) against the stored key; `payment` is what a
    /// Secure Payment Confirmation for this challenge showed, where one was issued.
    func checkAssertion(
        credential: StoredCredential, challenge: [UInt8], userVerificationRequired: Bool, clientData: [UInt8],
        authenticatorData: [UInt8], signature: [UInt8],
        payment: SecurePaymentConfirmation? = nil
    ) async throws -> Result<VerifiedAssertion, WebAuthnError> {
        let (verifier, publicKeys) = (assertionVerifier, self.publicKeys)
        let verify = { @Sendable in
            Result { () throws(WebAuthnError) -> VerifiedAssertion in
                let publicKey = try publicKeys.key(stored: credential.publicKey)
                return try verifier.verify(
                    clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                    expectedChallenge: challenge, credentialPublicKey: publicKey,
                    storedSignCount: UInt32(clamping: credential.signCount),
                    userVerificationRequired: userVerificationRequired, payment: payment
                )
            }
        }
        // A P-256 check (nearly every key) takes tens of microseconds: here, rather than two
        // thread switches to and from the pool. RSA, Ed448 and ML-DSA can take milliseconds: off
        // the task's thread, on the blocking pool.
        guard credential.algorithm != Int64(COSEAlgorithm.es256.rawValue) else { return verify() }
        return try await NIOThreadPool.singleton.runIfActive(verify)
    }

    func flag(_ credential: StoredCredential, reason: String, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.credentials.flag(id: credential.id, reason: reason, now: now)
        }
    }
}
