import CountersignAPI
import CountersignCodec
import Crypto
import Foundation

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
        let now = clock.nowMillis()
        let usable = try await database.read { sql in try await sql.credentials.list(userId: userId) }.filter {
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
        try await database.single { sql in try await sql.challenges.insert(stored, now: now) }
        metrics.challengeIssued(purpose: "step_up")
        return StepUpOptionsResponse(
            challenge: challenge, rpId: configuration.rpId,
            allowCredentials: usable.map {
                CredentialDescriptor(id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            userVerification: configuration.userVerification, timeout: Int(configuration.challengeTimeoutMillis)
        )
    }

    /// Checks the step-up of `request` and says how the new key is bound: an assertion over a
    /// step-up challenge from a key out of its cooling-off (`key`), or the account PIN (one count of
    /// PIN failures with login and payments) **and** a code sent to the number, purpose
    /// `bind-device` (`pin-code`, which starts a cooling-off). The PIN alone does only within ten
    /// minutes of a session a code opened: the signup (`signup`, no cooling-off: the account is
    /// new and empty) or a sign-in on a new device (which keeps that device's cooling-off).
    /// 401 `step_up_required` without either, `phone_code_required` for the PIN alone, 401
    /// `step_up_failed` when it does not check out, 423 while locked, 403 `device_cooling_off`
    /// while a key bound with the PIN and a code is new.
    func checkStepUp(userId: String, _ request: RegistrationOptionsRequest, session: LiveSession?) async throws
        -> KeyBinding
    {
        let now = clock.nowMillis()
        switch (request.pin, request.assertion) {
        case (nil, nil):
            throw APIError(
                .stepUpRequired,
                "Adding a device key needs a signature from a key you already have, or your PIN and a code sent to your number."
            )
        case (.some, .some):
            throw APIError(.ambiguousStepUp, "Send a pin or an assertion, not both.")
        case (.some(let pin), nil):
            guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
            let user = try await loadUser(userId)
            let fresh = session.map {
                ["signup", "code"].contains($0.proof) && now - $0.createdAt <= KeyBinding.freshMillis
            }
            var proven: ProvenCode?
            if let id = request.verificationId, let code = request.code {
                let code = try await verifications.prove(verificationId: id, code: code, purpose: .bindDevice)
                guard code.userId == userId, code.phone == user.phone else { throw PhoneVerifications.expired }
                proven = code
            } else if fresh != true {
                throw APIError(
                    .phoneCodeRequired,
                    "Adding a device key with your PIN needs a code sent to your number too (or a signature from a key you have)."
                )
            }
            let binding =
                proven == nil && session?.proof == "signup"
                ? KeyBinding(boundBy: "signup", coolingUntil: 0)
                : KeyBinding(
                    boundBy: "pin-code",
                    coolingUntil: proven == nil
                        ? max(session?.coolingUntil ?? 0, now) : now + configuration.newDeviceSeconds * 1000)
            if binding.boundBy == "pin-code" { try await ensureNoKeyCooling(userId: userId, now: now) }
            try AccountService.ensurePinUsable(user, now: now)
            try await pinGuard.confirm(pin, user: user)
            if let proven {
                try await database.transaction { sql in try await verifications.consume(proven, now: now, on: sql) }
            }
            return binding
        case (nil, .some(let assertion)):
            let credentialId = try await verifyAssertion(userId: userId, assertion, for: .stepUp).credential.id
            let signer = try await database.read { sql in try await sql.credentials.find(id: credentialId) }
            if let signer, signer.coolingUntil > now {
                throw Self.coolingOff(until: signer.coolingUntil, now: now)
            }
            return KeyBinding(boundBy: "key", coolingUntil: 0)
        }
    }

    /// 403 `device_cooling_off` while one of the user's keys bound with the PIN and a code is new.
    func ensureNoKeyCooling(userId: String, now: Int64) async throws {
        let cooling =
            try await database.read { sql in try await sql.credentials.list(userId: userId) }
            .filter { $0.flaggedAt == nil }.map(\.coolingUntil).max() ?? 0
        if cooling > now { throw Self.coolingOff(until: cooling, now: now) }
    }

    static func coolingOff(until: Int64, now: Int64) -> APIError {
        APIError(
            .deviceCoolingOff,
            "A key added with your PIN and a code is still new: no other key can be added that way until its cooling-off ends.",
            retryAfter: Int((until - now + 999) / 1000))
    }
}

/// How a new key is bound, carried from its creation options to its registration in the
/// registration challenge's intent.
struct KeyBinding: Codable, Sendable, Equatable {
    /// `key`, `pin-code` or `signup`.
    let boundBy: String
    /// Until then (milliseconds) the key pays at most the new-device limit; 0 for none.
    let coolingUntil: Int64

    /// How long after a code opened a session its PIN alone may bind a key.
    static let freshMillis: Int64 = 10 * 60 * 1000

    var intent: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }

    init(boundBy: String, coolingUntil: Int64) {
        self.boundBy = boundBy
        self.coolingUntil = coolingUntil
    }

    /// The binding stored in a registration challenge; keys from before bindings existed are `pin`.
    init(intent: String?) {
        self =
            intent.flatMap { try? JSONDecoder().decode(KeyBinding.self, from: Data($0.utf8)) }
            ?? KeyBinding(boundBy: "pin", coolingUntil: 0)
    }
}

extension APIError {
    /// 423: the PIN is locked after repeated failures.
    package static func pinLocked(retryAfter: Int) -> APIError {
        APIError(.pinLocked, "Too many failed PIN attempts. Try again later.", retryAfter: retryAfter)
    }
}
