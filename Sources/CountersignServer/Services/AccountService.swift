import Foundation
import CountersignAPI
import CountersignCore
import WebAuthn

/// Signup, login, logout and session lookup.
package struct AccountService: Sendable {
    let database: any Database
    let users: any UserRepository
    let sessions: any SessionRepository
    let ledger: any LedgerRepository
    let pins: PinHasher
    let clock: WallClock
    let configuration: ServerConfiguration

    /// Creates a user with a wallet and returns a new session.
    package func signup(_ request: SignupRequest) async throws -> SessionResponse {
        guard let phone = PhoneNumber(request.phone) else {
            throw APIError.badRequest("invalid_phone", "phone must be 7 to 15 digits, optionally starting with +.")
        }
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100 else { throw APIError.badRequest("invalid_name", "name must be 1 to 100 characters.") }
        guard PinHasher.isWellFormed(request.pin) else { throw APIError.badRequest("invalid_pin", "pin must be 4 to 6 digits.") }
        let pinHash = try await pins.hash(request.pin)
        let now = clock.nowMillis()
        let token = Base64URL.encode(Identifier.randomBytes(32))
        let userId = Identifier.make("usr")
        let (users, sessions, ledger, currency, expiry) = (self.users, self.sessions, self.ledger, configuration.currency, now + configuration.sessionSeconds * 1000)
        try await database.transaction { sql in
            _ = try await users.create(
                id: userId, phone: phone.value, name: name, pinHash: pinHash,
                userHandle: Base64URL.encode(Identifier.randomBytes(16)), now: now, on: sql
            )
            _ = try await ledger.openAccounts(userId: userId, currency: currency, now: now, on: sql)
            try await sessions.create(tokenHash: Identifier.digest(token), userId: userId, now: now, expiresAt: expiry, on: sql)
        }
        return SessionResponse(userId: userId, sessionToken: token)
    }

    /// Checks phone and PIN and returns a new session. Five failures lock login for 15 minutes.
    package func login(_ request: LoginRequest) async throws -> SessionResponse {
        let failure = APIError(.unauthorized, "invalid_credentials", "Phone number or PIN is incorrect.")
        guard let phone = PhoneNumber(request.phone), PinHasher.isWellFormed(request.pin) else { throw failure }
        let users = self.users
        guard let user = try await database.read({ sql in try await users.find(phone: phone.value, on: sql) }) else {
            // Spend the same time as a real check, so response time does not reveal registered numbers.
            _ = try await pins.verify(request.pin, against: "pbkdf2-sha256$\(configuration.pinHashRounds)$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            throw failure
        }
        let now = clock.nowMillis()
        if user.loginLockedUntil > now {
            throw APIError(.init(code: 423, reasonPhrase: "Locked"), "login_locked", "Too many failed logins. Try again later.", retryAfter: Int((user.loginLockedUntil - now + 999) / 1000))
        }
        guard try await pins.verify(request.pin, against: user.pinHash) else {
            let (threshold, lockUntil) = (configuration.paymentFailureThreshold, now + configuration.paymentLockSeconds * 1000)
            _ = try await database.transaction { sql in
                try await users.recordLoginFailure(userId: user.id, threshold: threshold, lockUntil: lockUntil, on: sql)
            }
            throw failure
        }
        let token = Base64URL.encode(Identifier.randomBytes(32))
        let (sessions, expiry) = (self.sessions, now + configuration.sessionSeconds * 1000)
        try await database.transaction { sql in
            try await users.resetLoginFailures(userId: user.id, on: sql)
            try await sessions.create(tokenHash: Identifier.digest(token), userId: user.id, now: now, expiresAt: expiry, on: sql)
        }
        return SessionResponse(userId: user.id, sessionToken: token)
    }

    /// Revokes the session whose token is `token`.
    package func logout(token: String) async throws {
        let (sessions, now) = (self.sessions, clock.nowMillis())
        try await database.transaction { sql in try await sessions.revoke(tokenHash: Identifier.digest(token), now: now, on: sql) }
    }

    /// The user a bearer token belongs to, if its session is live.
    package func userId(forToken token: String) async throws -> String? {
        let (sessions, now) = (self.sessions, clock.nowMillis())
        return try await database.read { sql in try await sessions.userId(tokenHash: Identifier.digest(token), now: now, on: sql) }
    }
}
