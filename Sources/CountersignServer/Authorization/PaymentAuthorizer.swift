import CountersignAPI
import CountersignCore
import CountersignStore
import WebAuthn

/// What authorizes a payment from the wallet — a verification token bound to the payment's intent
/// (the passkey signed it), or the PIN — checked the same way for top-ups and marketplace orders.
package struct PaymentAuthorizer: Sendable {
    let database: any Database
    let users: any UserRepository
    let tokens: VerificationTokens
    let consumedTokens: any ConsumedTokenRepository
    let lock: PaymentLock
    let pinGuard: PinGuard
    let newDeviceLimit: NewDeviceLimit
    let clock: WallClock
    let credentials = CredentialSQLRepository()

    /// How the payment was authorized, once checked.
    enum Authorization {
        case token(VerificationClaims)
        case pin
        var label: String { if case .token = self { "biometric" } else { "pin" } }
    }

    /// Exactly one of a token and a PIN, each well-formed; 400 before any lock or state is consulted.
    static func checkShape(verificationToken: String?, pin: String?) throws(APIError) {
        switch (verificationToken, pin) {
        case (nil, nil): throw APIError(.authorizationRequired, "Send a verificationToken or a pin.")
        case (.some, .some): throw APIError(.ambiguousAuthorization, "Send a verificationToken or a pin, not both.")
        case (nil, .some(let pin)) where !PinHasher.isWellFormed(pin):
            throw APIError(.invalidPin, "pin must be 4 to 6 digits.")
        case (.some(let token), nil) where token.unicodeScalars.count > 4095:
            throw APIError(.invalidVerificationToken, "verificationToken must be at most 4095 characters.")
        default: return
        }
    }

    /// Checks the token against `intent` (dynamic linking) or the PIN, and the new-device limit.
    /// The token is spent later, in the transaction that moves the money (`spend`).
    func authorize(
        userId: String, intent: PaymentIntent, verificationToken: String?, pin: String?, session: LiveSession?
    ) async throws -> (Authorization, User) {
        let users = self.users
        guard let user = try await database.read({ sql in try await users.find(id: userId, on: sql) }) else {
            throw APIError.unauthenticated
        }
        try lock.ensureUnlocked(user)
        if let token = verificationToken {
            let claims = try await tokens.verify(token, now: clock.nowMillis())
            guard claims.sub == userId else {
                throw APIError(.tokenWrongUser, "The verification token belongs to another user.")
            }
            // Dynamic linking: the device signed SHA-256(nonce ‖ intent); the token carries the
            // intent's digest, and this request must be for exactly that intent.
            guard claims.dig == Base64URL.encode(intent.digest) else {
                throw APIError(.intentMismatch, "The verification token was issued for a different payment.")
            }
            let credentials = self.credentials
            let key = try await database.read { sql in try await credentials.find(id: claims.cid, on: sql) }
            try newDeviceLimit.check(amount: intent.amount, session: session, key: key)
            return (.token(claims), user)
        }
        // The PIN-only path: the one place a limit on payments without the passkey applies.
        try newDeviceLimit.check(amount: intent.amount, session: session)
        try AccountService.ensurePinUsable(user, now: clock.nowMillis())
        try await lock.checkPIN(pin ?? "", user: user, guard: pinGuard)
        return (.pin, user)
    }

    /// Spends a verification token inside the payment's transaction: a second use of it, or one
    /// from a key revoked or flagged since, moves nothing.
    func spend(_ claims: VerificationClaims, userId: String, now: Int64, on sql: any SQLExecutor) async throws {
        let spend = try await consumedTokens.consume(
            jti: claims.jti, userId: userId, credentialId: claims.cid,
            expiresAt: claims.exp.multipliedReportingOverflow(by: 1000).overflow ? .max : claims.exp * 1000,
            now: now, on: sql)
        switch spend {
        case .spent: break
        case .replayed: throw APIError(.tokenReplayed, "This verification token has already been used.")
        case .keyRevoked:
            throw APIError(.unknownCredential, "The key that authorized this payment has been revoked.")
        case .keyFlagged:
            throw APIError(
                .credentialFlagged, "The key that authorized this payment was disabled after a security check.")
        }
    }
}
