import CountersignAPI
import CountersignCore
import CountersignStore

/// The operator console's work on users' accounts: finding them, reading one, and the three actions
/// that change one (unlock, revoke a device key, fund the wallet).
///
/// Every action takes the operator's own PIN, checked again by `PinGuard` (one count of failures with
/// the operator's logins and payments, so guessing locks the operator out): a stolen operator session
/// alone reads accounts but changes none. No operator acts on their own account (403 `own_account`).
/// Each action is appended to `operator_actions` in the transaction that does it, so the log never
/// misses an action nor names one that did not happen.
package struct OperatorConsole: Sendable {
    let database: any Database
    let clock: WallClock
    let wallets: WalletService
    let pinGuard: PinGuard
    let currency: String
    let phoneRegion: PhoneRegion
    let limitTiers: LimitTiers
    let instance: ServerInstance

    /// The most users one search answers.
    package static let searchLimit = 20
    /// The fewest digits a search gives: a country code, a network and more.
    package static let searchDigits = 8
    /// The most transactions a user's detail lists.
    package static let transactionLimit = 20

    /// Users whose number starts with `text`, written as the user forms accept a number (`+234803…`,
    /// `0803 12…`; `PhoneNumber.prefix`) and read in the server's phone region (400 `invalid_phone`
    /// otherwise); at most `searchLimit`, by number. Eight digits at least and a rate limit per
    /// operator, so listing every user by walking prefixes takes many searches; each is recorded as an
    /// operator action, with the prefix searched.
    package func search(operatorId: String, phonePrefix text: String) async throws -> OperatorUserList {
        guard let prefix = PhoneNumber.prefix(text, region: phoneRegion) else {
            throw APIError(
                .invalidPhone,
                "phone must be the start of a number: + and \(Self.searchDigits) to 15 digits, or 0 and 5 or more digits."
            )
        }
        let now = clock.nowMillis()
        let found = try await database.transaction { sql in
            let found = try await sql.operators.search(phonePrefix: prefix, limit: Self.searchLimit, now: now)
            try await sql.operators.record(
                OperatorAction(
                    id: Identifier.make("opa"), operatorId: operatorId, via: "console", action: "search_users",
                    targetUserId: nil, detail: "searched \(prefix): \(found.count) found", createdAt: now))
            return found
        }
        return OperatorUserList(
            users: found.map {
                OperatorUserSummary(
                    userId: $0.id, phone: $0.phone, name: $0.name, isOperator: $0.isOperator,
                    locked: $0.isLocked(at: now))
            })
    }

    /// A user's wallet, locks, live device keys and latest transactions; 404 `unknown_user`.
    package func detail(userId: String) async throws -> OperatorUserDetail {
        let now = clock.nowMillis()
        let limits = SpendingLimits(tiers: limitTiers)
        return try await database.read { sql in
            guard let account = try await sql.operators.account(userId: userId) else {
                throw Self.unknownUser
            }
            var detail = OperatorUserDetail(
                userId: account.id, phone: account.phone, name: account.name, isOperator: account.isOperator,
                createdAt: WallClock.iso8601(millis: account.createdAt),
                balance: try await sql.ledger.balance(userId: userId, kind: .wallet, currency: currency),
                cashback: try await sql.ledger.balance(userId: userId, kind: .cashback, currency: currency),
                currency: currency,
                lock: OperatorLockState(
                    locked: account.isLocked(at: now), failedPaymentAuths: account.failedPaymentAuths,
                    paymentLockedUntil: account.paymentLockedUntil > now
                        ? WallClock.iso8601(millis: account.paymentLockedUntil) : nil,
                    failedPinAttempts: account.failedPinAttempts,
                    pinLockedUntil: account.pinLockedUntil > now
                        ? WallClock.iso8601(millis: account.pinLockedUntil) : nil,
                    pinBlocked: account.pinBlocked),
                keys: try await sql.credentials.list(userId: userId).map(\.summary),
                transactions: try await sql.walletTransactions.list(
                    userId: userId, before: nil, currency: nil, limit: Self.transactionLimit
                ).map { $0.summary() },
                phoneVerified: account.phoneVerified,
                events: try await sql.accountEvents.list(userId: userId, limit: 20),
                wallets: try await wallets.balances(userId: userId, on: sql))
            detail.limitsTier = try await limits.tier(userId: userId, on: sql)
            detail.limitsTiers = limits.tiers.tiers.keys.sorted()
            return detail
        }
    }

    /// Clears `userId`'s payment and PIN locks and failure counts.
    package func unlock(operatorId: String, userId: String, pin: String) async throws {
        try await confirm(operatorId: operatorId, pin: pin, target: userId)
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard let before = try await sql.operators.unlock(userId: userId) else { throw Self.unknownUser }
            let state = before.isLocked(at: now) ? "was locked" : "was not locked"
            try await sql.accountEvents.record(
                userId: userId, kind: .unlockedByOperator,
                detail: "An operator lifted the locks on the PIN and payments.", now: now)
            try await sql.operators.record(
                Self.action(
                    "unlock_account", operatorId: operatorId, target: userId, now: now,
                    detail:
                        "\(state); cleared \(before.failedPaymentAuths) payment and \(before.failedPinAttempts) PIN failures"
                ))
        }
    }

    /// Revokes one of `userId`'s device keys; 404 `unknown_credential` if the user has no live key
    /// with that id.
    package func revokeKey(operatorId: String, userId: String, credentialId: String, pin: String) async throws {
        try await confirm(operatorId: operatorId, pin: pin, target: userId)
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard try await sql.operators.account(userId: userId) != nil else { throw Self.unknownUser }
            guard try await sql.credentials.revoke(id: credentialId, userId: userId, now: now) else {
                throw APIError(.unknownCredential, "The user has no live device key with that id.")
            }
            try await sql.operators.record(
                Self.action(
                    "revoke_key", operatorId: operatorId, target: userId, now: now,
                    detail: "revoked device key \(credentialId)"))
        }
    }

    /// Credits `amount` to `userId`'s wallet in `currency` (the primary one if nil): the ledger entry
    /// `countersign wallet fund` posts. The operator's `key` goes through the one idempotency mechanism
    /// (`IdempotentRequest`, claimed in the credit's transaction, in the operator's key space): a retry
    /// or a parallel copy answers the funding made (`replayed`) with the balance now; the key with
    /// another user, amount or currency is 422 `idempotency_key_reused`. The funding's reference stays
    /// `console:<operator>:<key>`, so the history and the audit name who made it and with which key.
    package func fund(
        operatorId: String, userId: String, amount: Int64, currency: String? = nil, pin: String, key: String
    ) async throws -> (funding: OperatorFunding, replayed: Bool) {
        let currency = try wallets.walletCurrency(currency)
        try WalletService.checkFunding(amount, currency: currency)
        try Self.refuseOwn(operatorId: operatorId, target: userId)
        let reference = Self.fundingReference(operatorId: operatorId, key: key)
        let request = IdempotentRequest(
            key: key, canonical: Array("operator fund\n\(userId)\n\(amount)\n\(currency)".utf8))
        /// The funding a key made, as a replay answers it, with the balance now.
        @Sendable func made(_ transactionId: String, on sql: any SQLExecutor) async throws -> OperatorFunding? {
            guard let funding = try await sql.walletTransactions.find(id: transactionId) else { return nil }
            return OperatorFunding(
                transactionId: funding.id, userId: funding.userId, amount: funding.amount, currency: funding.currency,
                balance: try await sql.ledger.balance(
                    userId: funding.userId, kind: .wallet, currency: funding.currency))
        }
        // A key already used answers before the PIN is judged, as a top-up's does: a retry answers
        // the same whatever PIN it carries (no PIN oracle), and costs no PIN attempt. It tells a stolen
        // session nothing the console's reads do not.
        switch try await database.read({ sql in
            try await sql.idempotency.lookup(userId: operatorId, key: key, requestHash: request.fingerprint)
        }) {
        case .existing(let transactionId)?:
            guard let funding = try await database.read({ sql in try await made(transactionId, on: sql) }) else {
                throw IdempotentRequest.reused
            }
            return (funding, true)
        case .inFlight?: throw IdempotentRequest.inFlight
        case .mismatch?, .replay?: throw IdempotentRequest.reused
        case .claimed?, nil: break
        }
        // A funding an earlier version made with this key recorded it only in its reference.
        if let earlier = try await database.read({ sql in
            try await sql.walletTransactions.find(type: .funding, externalReference: reference)
        }) {
            guard earlier.userId == userId, earlier.amount == amount, earlier.currency == currency,
                let funding = try await database.read({ sql in try await made(earlier.id, on: sql) })
            else { throw IdempotentRequest.reused }
            return (funding, true)
        }
        try await confirm(operatorId: operatorId, pin: pin, target: userId)
        let (owner, now) = (instance.id, clock.nowMillis())
        let (funding, created) = try await database.transaction { sql in
            try await sql.idempotency.claimResource(
                request, userId: operatorId, owner: owner, now: now, id: \.transactionId,
                find: { try await made($0, on: sql) },
                make: {
                    guard try await sql.operators.account(userId: userId) != nil else { throw Self.unknownUser }
                    let credited = try await wallets.credit(
                        userId: userId, amount: amount, currency: currency, reference: reference, now: now, on: sql)
                    try await sql.operators.record(
                        Self.action(
                            "fund_wallet", operatorId: operatorId, target: userId, now: now,
                            detail: "credited \(amount) \(currency) (\(credited.transactionId))"))
                    return OperatorFunding(
                        transactionId: credited.transactionId, userId: userId, amount: amount, currency: currency,
                        balance: credited.balance)
                })
        }
        guard let funding else { throw IdempotentRequest.reused }
        return (funding, !created)
    }

    /// The reference of an operator's funding made in the console with `key`.
    static func fundingReference(operatorId: String, key: String) -> String { "console:\(operatorId):\(key)" }

    /// The checks every action makes before it changes anything: not the operator's own account
    /// (403), a well-formed PIN (400), and the operator's PIN (401 / 423).
    func confirm(operatorId: String, pin: String, target: String) async throws {
        try Self.refuseOwn(operatorId: operatorId, target: target)
        try await confirmPin(operatorId: operatorId, pin: pin)
    }

    /// The operator's own PIN, for an action on no one user's account (a new webhook endpoint, an
    /// order's refund, a reversal): a well-formed PIN (400), then the PIN itself (401 / 423),
    /// counted with the operator's others.
    package func confirmPin(operatorId: String, pin: String) async throws {
        guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
        guard let user = try await database.read({ sql in try await sql.users.find(id: operatorId) }) else {
            throw APIError.unauthenticated
        }
        try await pinGuard.confirm(pin, user: user)
    }

    static func refuseOwn(operatorId: String, target: String) throws(APIError) {
        guard operatorId != target else {
            throw APIError(.ownAccount, "Operators may not act on their own account; ask another operator.")
        }
    }

    static func action(_ name: String, operatorId: String, target: String, now: Int64, detail: String)
        -> OperatorAction
    {
        OperatorAction(
            id: Identifier.make("opa"), operatorId: operatorId, via: "console", action: name, targetUserId: target,
            detail: detail, createdAt: now)
    }

    static let unknownUser = APIError(.unknownUser, "No user has that id.")
}

extension StoredCredential {
    /// The key as its owner's list and the operator console show it.
    var summary: CredentialSummary {
        CredentialSummary(
            id: id, algorithm: Int(clamping: algorithm), attestationFormat: attestationFormat,
            attestationVerified: attestationVerified, backupEligible: backupEligible, transports: transports,
            createdAt: WallClock.iso8601(millis: createdAt), lastUsedAt: lastUsedAt.map(WallClock.iso8601(millis:)),
            flagged: flaggedAt != nil, coolingOffUntil: coolingUntil > 0 ? WallClock.iso8601(millis: coolingUntil) : nil
        )
    }
}
