import CountersignAPI
import CountersignCore
import CountersignStore

/// The spending limits of an account per currency: its tier's (`LimitTiers`), or lower ones the user
/// set, with a raise applying only after its delay. Checked before the gesture (read-only) and again
/// inside the debit's transaction, after the accounts it moves are locked, so parallel payments
/// never pass a limit together. Usage is what the user paid out of the wallet (top-ups, transfers
/// with their fees and marketplace orders; a refund does not give it back; failed ones not counted) in the last 24 hours or 30 days.
package struct SpendingLimits: Sendable {
    let tiers: LimitTiers

    /// One limit as it applies at some moment.
    struct Effective: Sendable {
        var limit: Int64?
        var tierLimit: Int64?
        /// A raise not yet applied: its amount and when it applies.
        var pending: (amount: Int64, from: Int64)?
    }

    /// The tier the operator assigned `userId`, else the default.
    func tier(userId: String, on sql: any SQLExecutor) async throws -> String {
        try await sql.limits.assignedTier(userId: userId) ?? tiers.defaultTier
    }

    /// The limits of `currency` at `now`.
    func effective(userId: String, currency: String, now: Int64, on sql: any SQLExecutor) async throws
        -> [SpendingLimitKind: Effective]
    {
        effective(
            try await sql.limits.snapshot(userId: userId, currency: currency, windows: nil), currency: currency,
            now: now)
    }

    /// The limits of `currency` at `now`, from what they rest on.
    func effective(_ snapshot: LimitsRepository.Snapshot, currency: String, now: Int64)
        -> [SpendingLimitKind: Effective]
    {
        let tierLimits = tiers.limits(tier: snapshot.tier ?? tiers.defaultTier, currency: currency)
        var result: [SpendingLimitKind: Effective] = [:]
        for kind in SpendingLimitKind.allCases {
            result[kind] = Effective(limit: tierLimits[kind], tierLimit: tierLimits[kind])
        }
        for row in snapshot.own {
            let kind = row.kind
            var own = row.amount
            var pending: (Int64, Int64)?
            if let raise = row.pending {
                if raise.from <= now { own = raise.amount } else { pending = (raise.amount, raise.from) }
            }
            let tierLimit = tierLimits[kind]
            // A tier lowered since the user set theirs still binds: the lower of the two.
            let cap = { (amount: Int64) in tierLimit.map { min($0, amount) } ?? amount }
            result[kind] = Effective(
                limit: cap(own), tierLimit: tierLimit, pending: pending.map { (cap($0.0), $0.1) })
        }
        return result
    }

    /// What counts against `kind` now: paid out in its window, or the wallet's balance.
    func used(_ kind: SpendingLimitKind, userId: String, currency: String, now: Int64, on sql: any SQLExecutor)
        async throws -> Int64
    {
        switch kind {
        case .perPayment: return 0
        case .maxBalance: return try await sql.ledger.balance(userId: userId, kind: .wallet, currency: currency)
        case .daily, .rolling30Days:
            return try await sql.limits.paidOut(userId: userId, currency: currency, since: now - Self.window(kind))
        }
    }

    /// How far back a paid-out window reaches, in milliseconds (0 for the limits without one).
    static func window(_ kind: SpendingLimitKind) -> Int64 {
        switch kind {
        case .daily: 86_400_000
        case .rolling30Days: 30 * 86_400_000
        case .perPayment, .maxBalance: 0
        }
    }

    /// Refuses a payment of `amount` out of the wallet over a spending limit: 422 `limit_exceeded`
    /// with the limit and what remains. In a debit's transaction, lock the payer's accounts first
    /// (`lock`), so that what is counted cannot change before the commit.
    func checkOutgoing(userId: String, currency: String, amount: Int64, now: Int64, on sql: any SQLExecutor)
        async throws
    {
        try await outgoingCheck(userId: userId, currency: currency, amount: amount, now: now).make(on: sql)
    }

    /// `checkOutgoing` as a read and its judgement, to make with the payment's debit
    /// (`LedgerRepository.post(…reading:)`): the tier, the user's own limits and both windows' sums
    /// in one `SELECT`.
    func outgoingCheck(userId: String, currency: String, amount: Int64, now: Int64) -> LedgerRepository.Read {
        let read = LimitsRepository.SnapshotRead(userId: userId, currency: currency, windows: Self.windows(now))
        return LedgerRepository.Read(
            query: { binds in read.query(binds: &binds) },
            judge: { rows in
                try checkOutgoing(try read.snapshot(from: rows), currency: currency, amount: amount, now: now)
            })
    }

    /// The start of the two paid-out windows at `now`, for `LimitsRepository.snapshot`.
    static func windows(_ now: Int64) -> (since: Int64, alsoSince: Int64) {
        (since: now - window(.rolling30Days), alsoSince: now - window(.daily))
    }

    /// `checkOutgoing` on what the limits rest on, read with `windows(now)`.
    func checkOutgoing(_ snapshot: LimitsRepository.Snapshot, currency: String, amount: Int64, now: Int64) throws {
        let limits = effective(snapshot, currency: currency, now: now)
        for kind in [SpendingLimitKind.perPayment, .daily, .rolling30Days] {
            guard let limit = limits[kind]?.limit else { continue }
            let used: Int64 =
                switch kind {
                case .daily: snapshot.paidOut?.recent ?? 0
                case .rolling30Days: snapshot.paidOut?.total ?? 0
                default: 0
                }
            let remaining = max(0, limit - used)
            guard amount > remaining else { continue }
            let money = Currency.named(currency)
            let words =
                switch kind {
                case .perPayment: "at most \(money.format(limit)) at once"
                case .daily: "\(money.format(remaining)) more today (limit \(money.format(limit)) a day)"
                default: "\(money.format(remaining)) more in 30 days (limit \(money.format(limit)))"
                }
            throw APIError(
                .limitExceeded,
                "This payment is over your spending limit: you may pay \(words). Pay less, or change your limits.",
                limit: LimitRefusal(currency: currency, kind: kind, limit: limit, remaining: remaining))
        }
    }

    /// Refuses money coming in to `userId` that would take their wallet over its maximum balance:
    /// 422 `payee_limit_exceeded`, which says nothing of their balance or limit. The one check every
    /// transfer to a user makes (a funding, the user's own, uses `checkOwnIncoming`); inside a transaction,
    /// lock the wallet first.
    package func checkIncoming(userId: String, currency: String, amount: Int64, now: Int64, on sql: any SQLExecutor)
        async throws
    {
        guard let limit = try await effective(userId: userId, currency: currency, now: now, on: sql)[.maxBalance]?.limit
        else { return }
        let balance = try await used(.maxBalance, userId: userId, currency: currency, now: now, on: sql)
        guard balance > limit - amount else { return }
        throw APIError(
            .payeeLimitExceeded,
            "The recipient cannot receive this much now: their account limits do not allow it. Send less, or ask them.")
    }

    /// Refuses money a user adds to their own wallet beyond its maximum balance, counting `pending`
    /// (their fundings not yet settled, which will land): 422 `limit_exceeded`, with what may still
    /// come in. Unlike `checkIncoming` it may say so: the wallet is the asker's own.
    package func checkOwnIncoming(
        userId: String, currency: String, amount: Int64, pending: Int64, now: Int64, on sql: any SQLExecutor
    ) async throws {
        guard let limit = try await effective(userId: userId, currency: currency, now: now, on: sql)[.maxBalance]?.limit
        else { return }
        let (held, overflow) = try await used(.maxBalance, userId: userId, currency: currency, now: now, on: sql)
            .addingReportingOverflow(pending)
        let remaining = overflow ? 0 : max(0, limit - held)
        guard amount > remaining else { return }
        let money = Currency.named(currency)
        throw APIError(
            .limitExceeded,
            "Your \(currency) wallet may hold at most \(money.format(limit)): you may add \(money.format(remaining)) now. "
                + "Add less, or change your limits.",
            limit: LimitRefusal(currency: currency, kind: .maxBalance, limit: limit, remaining: remaining))
    }

    /// Locks `accountIds` (PostgreSQL `FOR UPDATE`, in id order as `LedgerRepository.post` does, so no
    /// two transactions wait on each other) before a check whose answer must hold until the commit.
    /// SQLite needs nothing: its writers run one at a time.
    static func lock(_ accountIds: [String], database: any Database, on sql: any SQLExecutor) async throws {
        guard database.engine == .postgres else { return }
        try await sql.ledger.lock(accountIds: accountIds)
    }
}
