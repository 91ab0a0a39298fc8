import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore
import Foundation

/// Signup, login, logout and session lookup.
package struct AccountService: Sendable {
    let database: any Database
    let users: any UserRepository
    let sessions: any SessionRepository
    let ledger: any LedgerRepository
    let pins: PinHasher
    let pinGuard: PinGuard
    let clock: WallClock
    let configuration: ServerConfiguration
    /// Wakes this process's event streams when a user's sessions end.
    package let sessionSignals = SessionSignals()

    /// Creates a user with a wallet and returns a new session.
    package func signup(_ request: SignupRequest) async throws -> SessionResponse {
        guard let phone = PhoneNumber(request.phone, region: configuration.phoneRegion) else {
            throw APIError(
                .invalidPhone, "phone must be a phone number: +country code and number, or a national number.")
        }
        let name = DisplayText.sanitized(request.name)
        guard !name.isEmpty, request.name.unicodeScalars.count <= 100 else {
            throw APIError(.invalidName, "name must be 1 to 100 characters.")
        }
        guard PinHasher.isWellFormed(request.pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
        let pinHash = try await pins.hash(request.pin)
        let now = clock.nowMillis()
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let userId = Identifier.make("usr")
        let (users, sessions, ledger, currency, expiry) = (
            self.users, self.sessions, self.ledger, configuration.currency, now + configuration.sessionSeconds * 1000
        )
        try await database.transaction { sql in
            _ = try await users.create(
                id: userId, phone: phone.value, name: name, pinHash: pinHash,
                userHandle: Base64URL.encode(SecureRandom.bytes(16)), now: now, on: sql
            )
            _ = try await ledger.openAccounts(userId: userId, currency: currency, now: now, on: sql)
            try await sessions.create(
                tokenHash: Identifier.digest(token), userId: userId, now: now, expiresAt: expiry, on: sql)
        }
        return SessionResponse(userId: userId, sessionToken: token)
    }

    /// Checks phone and PIN and returns a new session. Five failures lock login for 15 minutes.
    package func login(_ request: LoginRequest) async throws -> SessionResponse {
        let failure = APIError(.invalidCredentials, "Phone number or PIN is incorrect.")
        guard let phone = PhoneNumber(request.phone, region: configuration.phoneRegion),
            PinHasher.isWellFormed(request.pin)
        else { throw failure }
        let users = self.users
        guard let user = try await database.read({ sql in try await users.find(phone: phone.value, on: sql) }) else {
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
        let (sessions, expiry) = (self.sessions, now + configuration.sessionSeconds * 1000)
        try await database.transaction { sql in
            try await sessions.create(
                tokenHash: Identifier.digest(token), userId: user.id, now: now, expiresAt: expiry, on: sql)
        }
        return SessionResponse(userId: user.id, sessionToken: token)
    }

    /// A new session for a user who proved who they are another way (a passkey).
    package func openSession(userId: String) async throws -> SessionResponse {
        let now = clock.nowMillis()
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let (sessions, expiry) = (self.sessions, now + configuration.sessionSeconds * 1000)
        try await database.transaction { sql in
            try await sessions.create(
                tokenHash: Identifier.digest(token), userId: userId, now: now, expiresAt: expiry, on: sql)
        }
        return SessionResponse(userId: userId, sessionToken: token)
    }

    /// Revokes the session whose token is `token`; the user's open streams on it end.
    package func logout(token: String, userId: String) async throws {
        let (sessions, now) = (self.sessions, clock.nowMillis())
        try await database.transaction { sql in
            try await sessions.revoke(tokenHash: Identifier.digest(token), now: now, on: sql)
        }
        sessionSignals.sessionsEnded(userId: userId)
    }

    /// Revokes every session of the user, this one included ("log out everywhere"); returns how many.
    package func logoutEverywhere(userId: String) async throws -> Int {
        let (sessions, now) = (self.sessions, clock.nowMillis())
        let count = try await database.transaction { sql in
            try await sessions.revokeAll(userId: userId, now: now, on: sql)
        }
        sessionSignals.sessionsEnded(userId: userId)
        return count
    }

    /// The user a bearer token belongs to, if its session is live: unrevoked, within its lifetime,
    /// and used within the idle limit. Use is recorded at most once a minute per session, so
    /// the hot path stays a read.
    package func userId(forToken token: String) async throws -> String? {
        let (sessions, now, tokenHash) = (self.sessions, clock.nowMillis(), Identifier.digest(token))
        let idleBefore = now - configuration.sessionIdleSeconds * 1000
        guard
            let session = try await database.read({ sql in
                try await sessions.find(tokenHash: tokenHash, now: now, idleBefore: idleBefore, on: sql)
            })
        else {
            return nil
        }
        if now - session.lastSeenAt >= Self.touchIntervalMillis {
            try await database.transaction { sql in try await sessions.touch(tokenHash: tokenHash, now: now, on: sql) }
        }
        return session.userId
    }

    /// How stale `last_seen_at` may get before a request refreshes it.
    static let touchIntervalMillis: Int64 = 60_000
}
