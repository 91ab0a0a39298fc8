import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore
import Foundation

/// Signup, login, logout and session lookup.
///
/// A number is proven by a code before an account is opened on it, and a device the account does
/// not know signs in with the PIN and a code: a shoulder-surfed PIN alone opens nothing. A device
/// that held a session of the user keeps a device token (never the session itself; browsers get
/// it as an HttpOnly cookie) and signs in again with the PIN alone.
package struct AccountService: Sendable {
    let database: any Database
    let pins: PinHasher
    let pinGuard: PinGuard
    let clock: WallClock
    let configuration: ServerConfiguration
    let verifications: PhoneVerifications
    /// Wakes this process's event streams when a user's sessions end.
    package let sessionSignals = SessionSignals()

    /// Opens an account on the number a code proved (purpose `signup`), with a wallet, a session and
    /// a remembered device. A number held by an account that never proved it is taken from that
    /// account: squatting a number gets nothing.
    package func signup(_ request: SignupRequest, device: DeviceContext) async throws -> SessionResponse {
        let name = DisplayText.sanitized(request.name)
        guard !name.isEmpty, request.name.unicodeScalars.count <= 100 else {
            throw APIError(.invalidName, "name must be 1 to 100 characters.")
        }
        try Self.checkNewPin(request.pin)
        let proven = try await verifications.prove(
            verificationId: request.verificationId, code: request.code, purpose: .signup)
        let pinHash = try await pins.hash(request.pin)
        let now = clock.nowMillis()
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let userId = Identifier.make("usr")
        let currencies = configuration.walletCurrencies
        let deviceToken = try await database.transaction { sql in
            try await verifications.consume(proven, now: now, on: sql)
            if let squatter = try await sql.users.releaseUnverified(phone: proven.phone, now: now) {
                try await sql.accountEvents.record(
                    userId: squatter, kind: .phoneReleased,
                    detail: "Another account proved this number; it no longer reaches this account.", now: now)
                _ = try await sql.sessions.revokeAll(userId: squatter, now: now)
            }
            _ = try await sql.users.create(
                id: userId, phone: proven.phone, name: name, pinHash: pinHash,
                userHandle: Base64URL.encode(SecureRandom.bytes(16)), now: now
            )
            for currency in currencies {
                _ = try await sql.ledger.openAccounts(userId: userId, currency: currency, now: now)
            }
            try await sql.accountEvents.record(userId: userId, kind: .signedUp, detail: "Account opened.", now: now)
            return try await openSession(
                userId: userId, token: token, proof: "signup", device: device, knownDevice: nil, coolingUntil: 0,
                now: now, on: sql)
        }
        return SessionResponse(userId: userId, sessionToken: token, deviceToken: deviceToken)
    }

    /// Checks phone and PIN and returns a new session. On a device the account does not know, a code
    /// sent to the number (purpose `login`) must come too; without one the answer is 401
    /// `phone_code_required` before any PIN is judged, for registered and unknown numbers alike.
    /// Five failures lock login; locks grow (`PinGuard`).
    package func login(_ request: LoginRequest, device: DeviceContext) async throws -> SessionResponse {
        let failure = APIError(.invalidCredentials, "Phone number or PIN is incorrect.")
        guard let phone = PhoneNumber(request.phone, region: configuration.phoneRegion),
            PinHasher.isWellFormed(request.pin)
        else { throw failure }
        let user = try await database.read { sql in try await sql.users.find(phone: phone.value) }
        let known: KnownDevice? =
            if let user, let token = device.token {
                try await database.read { sql in
                    try await sql.knownDevices.find(tokenHash: Identifier.digest(token), userId: user.id)
                }
            } else { nil }
        var newDeviceCode: ProvenCode?
        if known == nil {
            guard let verificationId = request.verificationId, let code = request.code else {
                throw APIError(
                    .phoneCodeRequired,
                    "This device has not signed in to this account before: ask for a code to the number and send it with the PIN."
                )
            }
            let proven = try await verifications.prove(verificationId: verificationId, code: code, purpose: .login)
            guard proven.phone == phone.value else { throw PhoneVerifications.expired }
            newDeviceCode = proven
        }
        let proven = newDeviceCode
        guard let user else {
            // Spend the same time as a real check, so response time does not reveal registered numbers.
            _ = try await pins.verify(
                request.pin,
                against:
                    "pbkdf2-sha256$\(configuration.pinHashRounds)$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            )
            throw failure
        }
        let verdict: PinGuard.Verdict
        do {
            verdict = try await pinGuard.check(request.pin, user: user)
        } catch let locked as PinLocked {
            throw APIError(
                .loginLocked, "Too many failed PIN attempts. Try again later.", retryAfter: locked.retryAfter)
        }
        guard verdict == .correct else { throw failure }
        let now = clock.nowMillis()
        let token = Base64URL.encode(SecureRandom.bytes(32))
        // A new device's sessions pay little for a while; a remembered one keeps what it had.
        let cooling = known?.coolingUntil ?? (now + configuration.newDeviceSeconds * 1000)
        let deviceToken = try await database.transaction { sql -> String? in
            if let proven {
                try await verifications.consume(proven, now: now, on: sql)
                if user.phoneVerifiedAt == nil {
                    try await sql.users.markVerified(userId: user.id, now: now)
                    try await sql.accountEvents.record(
                        userId: user.id, kind: .phoneVerified, detail: "The number was proven with a code.", now: now)
                }
                try await sql.accountEvents.record(
                    userId: user.id, kind: .newDeviceSignIn, detail: "Signed in on a new device: \(device.label).",
                    now: now)
            }
            return try await openSession(
                userId: user.id, token: token, proof: known == nil ? "code" : "device", device: device,
                knownDevice: known, coolingUntil: cooling, now: now, on: sql)
        }
        if proven != nil {
            verifications.notify(
                user.phone,
                "Your Countersign account was signed in to on a new device. If this was not you, reset your PIN and "
                    + "remove the device in Security.", kind: "new_device_sign_in")
        }
        return SessionResponse(userId: user.id, sessionToken: token, deviceToken: deviceToken)
    }

    /// A new session for a user who proved who they are another way (a passkey): the device is
    /// remembered, as a device that signed in is.
    package func openSession(userId: String, proof: String, device: DeviceContext) async throws -> SessionResponse {
        let now = clock.nowMillis()
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let known: KnownDevice? =
            if let deviceToken = device.token {
                try await database.read { sql in
                    try await sql.knownDevices.find(tokenHash: Identifier.digest(deviceToken), userId: userId)
                }
            } else { nil }
        let deviceToken = try await database.transaction { sql in
            try await openSession(
                userId: userId, token: token, proof: proof, device: device, knownDevice: known,
                coolingUntil: known?.coolingUntil ?? 0, now: now, on: sql)
        }
        return SessionResponse(userId: userId, sessionToken: token, deviceToken: deviceToken)
    }

    /// Inserts the session and, for a device not yet remembered, its device; returns the new device's
    /// token (nil when the device was known).
    func openSession(
        userId: String, token: String, proof: String, device: DeviceContext, knownDevice: KnownDevice?,
        coolingUntil: Int64, now: Int64, on sql: any SQLExecutor
    ) async throws -> String? {
        var deviceId = knownDevice?.id
        var newToken: String?
        if let knownDevice {
            try await sql.knownDevices.touch(id: knownDevice.id, now: now)
        } else {
            let id = Identifier.make("dev")
            let token = Base64URL.encode(SecureRandom.bytes(32))
            try await sql.knownDevices.insert(
                id: id, tokenHash: Identifier.digest(token), userId: userId, label: device.label, now: now,
                coolingUntil: coolingUntil)
            (deviceId, newToken) = (id, token)
        }
        try await sql.sessions.create(
            tokenHash: Identifier.digest(token), userId: userId,
            origin: SessionOrigin(proof: proof, deviceId: deviceId, coolingUntil: coolingUntil), now: now,
            expiresAt: now + configuration.sessionSeconds * 1000)
        return newToken
    }

    /// 400 unless `pin` is 4 to 6 digits and not among the commonest (`weak_pin`).
    static func checkNewPin(_ pin: String) throws(APIError) {
        guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
        if let weakness = PinPolicy.weakness(of: pin) {
            throw APIError(.weakPin, "Choose another PIN: \(weakness).")
        }
    }

    /// Revokes the session whose token is `token`; the user's open streams on it end.
    package func logout(token: String, userId: String) async throws {
        let now = clock.nowMillis()
        try await database.transaction { sql in
            try await sql.sessions.revoke(tokenHash: Identifier.digest(token), now: now)
        }
        sessionSignals.sessionsEnded(userId: userId)
    }

    /// Revokes every session of the user, this one included ("log out everywhere"); returns how many.
    package func logoutEverywhere(userId: String) async throws -> Int {
        let now = clock.nowMillis()
        let count = try await database.transaction { sql in
            try await sql.sessions.revokeAll(userId: userId, now: now)
        }
        sessionSignals.sessionsEnded(userId: userId)
        return count
    }

    /// The user a bearer token belongs to, if its session is live: unrevoked, within its lifetime,
    /// and used within the idle limit. Use is recorded at most once a minute per session, so
    /// the hot path stays a read.
    package func userId(forToken token: String) async throws -> String? {
        try await session(forToken: token, withUser: false)?.userId
    }

    /// The live session of a bearer token (see `userId(forToken:)`), with its user's row unless
    /// `withUser` is false.
    package func session(forToken token: String, withUser: Bool = true) async throws -> LiveSession? {
        let (now, tokenHash) = (clock.nowMillis(), Identifier.digest(token))
        let idleBefore = now - configuration.sessionIdleSeconds * 1000
        guard
            let session = try await database.read({ sql in
                try await sql.sessions.find(
                    tokenHash: tokenHash, now: now, idleBefore: idleBefore, withUser: withUser)
            })
        else {
            return nil
        }
        if now - session.lastSeenAt >= Self.touchIntervalMillis {
            try await database.single { sql in try await sql.sessions.touch(tokenHash: tokenHash, now: now) }
        }
        return session
    }

    /// How stale `last_seen_at` may get before a request refreshes it.
    static let touchIntervalMillis: Int64 = 60_000
}

/// The device a request comes from: its token from an earlier session (the body's `deviceToken` or
/// the device cookie), and what it says it is.
package struct DeviceContext: Sendable {
    package let token: String?
    package let label: String

    package init(token: String?, userAgent: String?) {
        self.token = token.flatMap { $0.utf8.count <= 128 && !$0.isEmpty ? $0 : nil }
        let label = DisplayText.sanitized(String((userAgent ?? "").prefix(200)))
        self.label = label.isEmpty ? "Unknown device" : String(label.prefix(120))
    }
}
