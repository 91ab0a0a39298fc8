import CountersignAPI
import CountersignCore
import CountersignStore
import WebAuthn

/// What authorizes a payment from the wallet — a verification token bound to the payment's intent
/// (the passkey signed it), the passkey's assertion itself, or the PIN — checked the same way for
/// top-ups and marketplace orders.
package struct PaymentAuthorizer: Sendable {
    let database: any Database
    let tokens: VerificationTokens
    /// Checks an assertion sent with the payment instead of a token.
    let assertions: BiometricService
    let lock: PaymentLock
    let pinGuard: PinGuard
    let newDeviceLimit: NewDeviceLimit
    let pinAllowance: PinAllowance
    let limits: SpendingLimits
    let clock: WallClock

    /// How the payment was authorized, once checked.
    enum Authorization {
        case token(VerificationClaims)
        /// An assertion sent with the payment, checked, its challenge left for the payment's
        /// transaction to spend.
        case assertion(VerificationClaims, AssertionSpend)
        case pin
        var label: String { if case .pin = self { "pin" } else { "biometric" } }
    }

    /// What the request offers to authorize the payment, its shape checked.
    enum Factor {
        /// A verification token from `POST /biometric/auth/verify`.
        case token(String)
        /// The assertion itself, over the options challenge for this intent: the check `verify`
        /// would make, made with the payment (one round trip fewer).
        case assertion(AuthenticationResponseJSON)
        case pin(String)
    }

    /// Exactly one of a token, an assertion and a PIN, each well-formed; 400 before any lock or
    /// state is consulted.
    static func factor(verificationToken: String?, assertion: AuthenticationResponseJSON? = nil, pin: String?)
        throws(APIError) -> Factor
    {
        switch (verificationToken, assertion, pin) {
        case (nil, nil, nil):
            throw APIError(.authorizationRequired, "Send a verificationToken, an assertion or a pin.")
        case (.some(let token), nil, nil):
            guard token.unicodeScalars.count <= 4095 else {
                throw APIError(.invalidVerificationToken, "verificationToken must be at most 4095 characters.")
            }
            return .token(token)
        case (nil, .some(let assertion), nil): return .assertion(assertion)
        case (nil, nil, .some(let pin)):
            guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
            return .pin(pin)
        default:
            throw APIError(
                .ambiguousAuthorization, "Send one of a verificationToken, an assertion and a pin, not several.")
        }
    }

    /// Checks the factor: a token against `intent` (dynamic linking), an assertion against the
    /// challenge issued for `intent` (as `verify` does: single use, the lock, the counter, the
    /// passkey policy), or the PIN; then the new-device limit, the spending limits (for a token or
    /// the PIN; an assertion's are checked where its challenge is spent) and, for the PIN, its
    /// allowance. Read-only but for what checking an assertion records (the challenge spent, the
    /// counter, the failure count) and the PIN's failure count: the payment's transaction checks
    /// again and spends (`commit`).
    func authorize(userId: String, intent: PaymentIntent, factor: Factor, session: LiveSession?) async throws
        -> (Authorization, User)
    {
        let found: User?
        if let known = session?.user(userId) {
            found = known
        } else {
            found = try await database.read { sql in try await sql.users.find(id: userId) }
        }
        guard let user = found else { throw APIError.unauthenticated }
        try lock.ensureUnlocked(user)
        let claims: VerificationClaims
        switch factor {
        case .pin(let pin):
            try await checkLimits(userId: userId, intent: intent)
            try await checkPIN(pin, user: user, intent: intent, session: session)
            return (.pin, user)
        case .assertion(let assertion):
            // No limit check before: the debit's transaction checks them and spends the challenge
            // together, so a payment over a limit leaves the challenge open all the same.
            let (claims, key, spend) = try await assertions.paymentClaims(
                user: user, assertion, intentDigest: Base64URL.encode(intent.digest))
            try newDeviceLimit.check(amount: intent.amount, session: session, key: key)
            return (spend.map { .assertion(claims, $0) } ?? .token(claims), user)
        case .token(let token):
            // No limit check before, as for an assertion: the debit's transaction checks them under
            // the accounts' locks, and a payment over a limit rolls back with its token unspent.
            claims = try tokens.verify(token, now: clock.nowMillis())
            guard claims.sub == userId else {
                throw APIError(.tokenWrongUser, "The verification token belongs to another user.")
            }
            // Dynamic linking: the device signed SHA-256(nonce ‖ intent); the token carries the
            // intent's digest, and this request must be for exactly that intent.
            guard claims.dig == Base64URL.encode(intent.digest) else {
                throw APIError(.intentMismatch, "The verification token was issued for a different payment.")
            }
        }
        if let cool = claims.cool {
            // The key's cooling-off came signed with the token; the payment's transaction checks
            // that the key is still live when it spends the token.
            try newDeviceLimit.check(amount: intent.amount, session: session, keyCoolingUntil: cool)
        } else {
            let key = try await database.read { sql in try await sql.credentials.find(id: claims.cid) }
            try newDeviceLimit.check(amount: intent.amount, session: session, key: key)
        }
        return (.token(claims), user)
    }

    /// Over a spending limit: said before the PIN is checked, so a PIN over a limit is not judged
    /// (nor a failure counted); the debit checks again.
    private func checkLimits(userId: String, intent: PaymentIntent) async throws {
        let now = clock.nowMillis()
        try await database.read { sql in
            try await limits.checkOutgoing(
                userId: userId, currency: intent.currency, amount: intent.amount, now: now, on: sql)
        }
    }

    /// The PIN-only path: the one place a limit on payments without the passkey applies.
    private func checkPIN(_ pin: String, user: User, intent: PaymentIntent, session: LiveSession?) async throws {
        try newDeviceLimit.check(amount: intent.amount, session: session)
        // Refused before the PIN is checked: a try beyond the allowance counts nothing towards the
        // lock. The payment's transaction counts it again (`commit`).
        guard
            try await database.read({ sql in
                try await pinAllowance.permits(
                    userId: user.id, amount: intent.amount, currency: intent.currency, on: sql)
            })
        else { throw pinAllowance.refusal(intent.currency) }
        try AccountService.ensurePinUsable(user, now: clock.nowMillis())
        try await lock.checkPIN(pin, user: user, guard: pinGuard)
    }

    /// The authorization's part of the payment's transaction, before any money moves: `claim`, the
    /// request's idempotency key, first (`IdempotencyKeyTaken`, nothing written, if another request
    /// has it); then the token spent (a passkey payment with user verification renews the PIN
    /// allowance) or the PIN payment counted against its allowance; then the payer's `accounts` are
    /// locked. Throws, and the caller's transaction writes nothing, on a token used, revoked or
    /// flagged since, or an allowance passed.
    ///
    /// Returns the spending limits' check the payment still owes, to make under those locks so what
    /// the limits count holds until the commit: with the debit's statement
    /// (`LedgerRepository.post(…reading:)`) or alone (`make(on:)`), before any money moves.
    func commit(
        _ authorization: Authorization, userId: String, intent: PaymentIntent, locking accounts: [String],
        claiming claim: LinkedClaim? = nil, now: Int64, on sql: any SQLExecutor
    ) async throws -> LedgerRepository.Read {
        // The key before the factor: a concurrent retry with the same token is told its key is in
        // flight, not that its token was used. On PostgreSQL a token's or an assertion's spending
        // statement claims it in its first part, and where that claim is not made (nothing written)
        // the claim's own statement says why, or takes over a claim whose request died.
        var claim = claim
        let claimsInSpend = if case .pin = authorization { false } else { sql.engine == .postgres }
        if !claimsInSpend {
            try await Self.claim(claim, on: sql)
            claim = nil
        }
        switch authorization {
        case .pin:
            try await pinAllowance.spend(userId: userId, amount: intent.amount, currency: intent.currency, on: sql)
            try await SpendingLimits.lock(accounts, database: database, on: sql)
        case .token(let claims) where sql.engine == .postgres:
            // The key claimed, the token spent, the allowance renewed and the accounts locked in one statement.
            let spend = { (claim: LinkedClaim?) in
                try await sql.consumedTokens.spendPayment(
                    jti: claims.jti, userId: userId, credentialId: claims.cid, expiresAt: Self.expiry(of: claims),
                    now: now, renewingPinAllowance: claims.uv == true, locking: accounts, claiming: claim)
            }
            var outcome = try await spend(claim)
            if !outcome.claimed {
                try await Self.claim(claim, on: sql)
                outcome = try await spend(nil)
            }
            try Self.ensureSpent(outcome.spend)
        case .token(let claims):
            try await spend(claims, userId: userId, now: now, on: sql)
            if claims.uv == true { try await pinAllowance.renew(userId: userId, on: sql) }
            try await SpendingLimits.lock(accounts, database: database, on: sql)
        case .assertion(let claims, let assertion):
            // The challenge is the single use here: no token was issued to spend. The accounts are
            // locked with it, in its statement on PostgreSQL.
            let spend = { (claim: LinkedClaim?) in
                try await assertion.spend(
                    now: now, renewingPinAllowance: claims.uv == true, locking: accounts, claiming: claim, on: sql)
            }
            if try await !spend(claim) {
                try await Self.claim(claim, on: sql)
                _ = try await spend(nil)
            }
        }
        return limits.outgoingCheck(userId: userId, currency: intent.currency, amount: intent.amount, now: now)
    }

    /// Claims the request's idempotency key in a statement of its own: `IdempotencyKeyTaken`, with
    /// nothing written, unless it is now this request's.
    private static func claim(_ claim: LinkedClaim?, on sql: any SQLExecutor) async throws {
        guard let claim else { return }
        let outcome = try await sql.idempotency.claim(claim)
        guard case .claimed = outcome else { throw IdempotencyKeyTaken(claim: outcome) }
    }

    /// The refusal for an error the payment's transaction threw, once it has rolled back: an
    /// assertion's counter found behind then flags the key and counts the failure.
    func refusal(for error: any Error) async throws -> any Error {
        guard let behind = error as? AssertionSpend.CounterBehind else { return error }
        return try await assertions.refuseBehindCounter(behind)
    }

    /// Spends a verification token inside the payment's transaction: a second use of it, or one
    /// from a key revoked or flagged since, moves nothing.
    private func spend(_ claims: VerificationClaims, userId: String, now: Int64, on sql: any SQLExecutor) async throws {
        try Self.ensureSpent(
            try await sql.consumedTokens.consume(
                jti: claims.jti, userId: userId, credentialId: claims.cid, expiresAt: Self.expiry(of: claims), now: now)
        )
    }

    /// When a token's record may be purged, in milliseconds: its expiry.
    private static func expiry(of claims: VerificationClaims) -> Int64 {
        claims.exp.multipliedReportingOverflow(by: 1000).overflow ? .max : claims.exp * 1000
    }

    /// Refuses a payment whose token was not spent now.
    private static func ensureSpent(_ spend: TokenSpend) throws(APIError) {
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
