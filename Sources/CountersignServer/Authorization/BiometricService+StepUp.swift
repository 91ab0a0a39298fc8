import CountersignAPI
import CountersignCodec
import Crypto

/// The step-up a new device key needs: a session alone is not enough, since a stolen bearer token
/// would otherwise let the thief register their own key and authorize payments with it.
enum StepUp {
    /// What a step-up challenge covers, stored as its intent: adding a device key, nothing else.
    static let intent = #"{"action":"add_device_key"}"#
    static let intentDigest = Base64URL.encode(Array(SHA256.hash(data: Array(intent.utf8))))
}

extension BiometricService {
    /// Request options whose challenge authorizes adding a device key, for users who have one.
    package func stepUpOptions(userId: String) async throws -> StepUpOptionsResponse {
        let user = try await loadUser(userId)
        try lock.ensureUnlocked(user)
        let (credentials, challenges, now) = (self.credentials, self.challenges, clock.nowMillis())
        let usable = try await database.read { sql in try await credentials.list(userId: userId, on: sql) }.filter {
            $0.flaggedAt == nil
        }
        guard !usable.isEmpty else {
            throw APIError(.noRegisteredCredential, "You have no device key yet: step up with your PIN.")
        }
        let challenge = Base64URL.encode(SecureRandom.bytes(32))
        let stored = StoredChallenge(
            challenge: challenge, userId: userId, purpose: .authentication, intent: StepUp.intent,
            intentDigest: StepUp.intentDigest,
            userVerification: configuration.userVerification, expiresAt: now + configuration.challengeTimeoutMillis
        )
        try await database.transaction { sql in try await challenges.insert(stored, now: now, on: sql) }
        metrics.challengeIssued(purpose: "step_up")
        return StepUpOptionsResponse(
            challenge: challenge, rpId: configuration.rpId,
            allowCredentials: usable.map {
                CredentialDescriptor(id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            userVerification: configuration.userVerification, timeout: Int(configuration.challengeTimeoutMillis)
        )
    }

    /// Checks the step-up of `request`: the account PIN (one count of PIN failures with login and
    /// payments) or an assertion over a step-up challenge. 401 `step_up_required` without either,
    /// 401 `step_up_failed` when it does not check out, 423 while locked.
    func checkStepUp(userId: String, _ request: RegistrationOptionsRequest) async throws {
        switch (request.pin, request.assertion) {
        case (nil, nil):
            throw APIError(
                .stepUpRequired, "Adding a device key needs your PIN or a signature from a key you already have.")
        case (.some, .some):
            throw APIError(.ambiguousStepUp, "Send a pin or an assertion, not both.")
        case (.some(let pin), nil):
            guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
            try await pinGuard.confirm(pin, user: try await loadUser(userId))
        case (nil, .some(let assertion)):
            _ = try await verifyAssertion(userId: userId, assertion, for: .stepUp)
        }
    }
}

extension APIError {
    /// 423: the PIN is locked after repeated failures.
    package static func pinLocked(retryAfter: Int) -> APIError {
        APIError(.pinLocked, "Too many failed PIN attempts. Try again later.", retryAfter: retryAfter)
    }
}
