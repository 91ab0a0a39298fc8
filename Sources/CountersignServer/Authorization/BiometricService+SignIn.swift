import CountersignAPI
import CountersignCodec
import WebAuthn

/// Sign-in with a passkey (a discoverable credential): the browser offers the user's passkeys for
/// this site, the user picks one and verifies, and the assertion names the account. It opens a
/// session, nothing more: no payment, no new key.
///
/// Failures do not count towards the payment lock: credential ids are not secret, so anyone could
/// otherwise lock a user out of paying by sending bad signatures for their key. The endpoints are
/// rate-limited per client address instead.
extension BiometricService {
    /// Request options with a fresh single-use challenge and no `allowCredentials`: any of the
    /// user's passkeys for this relying party may answer.
    package func signInOptions() async throws -> PasskeySignInOptionsResponse {
        let challenge = Base64URL.encode(SecureRandom.bytes(32))
        let now = clock.nowMillis()
        try await database.transaction { sql in
            try await sql.signInChallenges.insert(
                challenge: challenge, userVerification: configuration.userVerification, now: now,
                expiresAt: now + configuration.challengeTimeoutMillis
            )
        }
        metrics.challengeIssued(purpose: "sign_in")
        return PasskeySignInOptionsResponse(
            challenge: challenge, rpId: configuration.rpId, allowCredentials: [],
            userVerification: configuration.userVerification,
            timeout: Int(configuration.challengeTimeoutMillis)
        )
    }

    /// The user an assertion over a sign-in challenge proves, or 401 `passkey_sign_in_failed`
    /// (the same answer whatever went wrong, so it tells nothing about which keys exist).
    package func signIn(_ body: AuthenticationResponseJSON) async throws -> String {
        let failed = APIError(.passkeySignInFailed, "That passkey could not sign you in.")
        let decoded = try DecodedAssertion(body)
        let now = clock.nowMillis()
        // The challenge is spent first, whatever follows: one try per challenge.
        let (userVerification, credential) = try await database.transaction { sql -> (String?, StoredCredential?) in
            let userVerification = try await sql.signInChallenges.consume(challenge: decoded.challenge, now: now)
            return (userVerification, try await sql.credentials.find(id: decoded.credentialId))
        }
        guard let userVerification, let credential, credential.flaggedAt == nil,
            let user = try await database.read({ sql in try await sql.users.find(id: credential.userId) }),
            // WebAuthn §7.2 step 6: a discoverable credential's assertion names its user.
            body.response.userHandle.map({ Base64URL.decode($0) == Base64URL.decode(user.userHandle) }) ?? false,
            let expected = Base64URL.decode(decoded.challenge)
        else { throw failed }
        let result = try await checkAssertion(
            credential: credential, challenge: expected, userVerificationRequired: userVerification == "required",
            clientData: decoded.clientData, authenticatorData: decoded.authenticatorData, signature: decoded.signature
        )
        guard case .success(let verified) = result, verified.flags.backupEligible == credential.backupEligible else {
            if case .failure(let error) = result, error.isMalformedInput { throw APIError(error) }
            throw failed
        }
        guard
            try await database.transaction({ sql in
                try await sql.credentials.recordUse(
                    id: credential.id, signCount: Int64(verified.signCount), backupState: verified.flags.backupState,
                    now: now)
            })
        else {
            // The counter went backwards: a cloned key or a replay. The key is disabled, as on a payment.
            try await flag(credential, reason: WebAuthnError.Code.signCountRegression.rawValue, now: now)
            throw failed
        }
        return user.id
    }
}
