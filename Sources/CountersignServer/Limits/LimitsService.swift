import CountersignAPI
import CountersignCore
import CountersignStore

/// `GET /user/limits` and `PUT /user/limits`: the user sees their limits per currency, lowers one at
/// once, or raises one (back up to the tier's) with a passkey step-up, applying after the delay: a
/// thief with the session alone cannot raise anything, and the holder has a day to notice a raise.
package struct LimitsService: Sendable {
    let database: any Database
    let limits: SpendingLimits
    let biometric: BiometricService
    let clock: WallClock

    /// The user's limits in every currency a tier limits.
    package func limits(userId: String) async throws -> LimitsResponse {
        let now = clock.nowMillis()
        return try await database.read { sql in
            var currencies: [CurrencyLimits] = []
            for currency in limits.tiers.currencies {
                let effective = try await limits.effective(userId: userId, currency: currency, now: now, on: sql)
                var entries: [SpendingLimit] = []
                for kind in SpendingLimitKind.allCases {
                    let limit = effective[kind]
                    let used = try await limits.used(kind, userId: userId, currency: currency, now: now, on: sql)
                    entries.append(
                        SpendingLimit(
                            kind: kind, limit: limit?.limit, tierLimit: limit?.tierLimit, used: used,
                            remaining: limit?.limit.map { max(0, $0 - used) },
                            pending: limit?.pending.map {
                                PendingLimitRaise(amount: $0.amount, effectiveAt: WallClock.iso8601(millis: $0.from))
                            }))
                }
                currencies.append(CurrencyLimits(currency: currency, limits: entries))
            }
            return LimitsResponse(
                tier: try await limits.tier(userId: userId, on: sql),
                raiseDelaySeconds: limits.tiers.raiseDelaySeconds, currencies: currencies)
        }
    }

    /// Sets one limit: at most the current one applies at once (and ends any pending raise); more
    /// needs `stepUp` (401 `step_up_required` without) and applies after the raise delay. A `stepUp`
    /// sent is verified either way. Over the tier's: 422 `limit_above_tier`.
    package func set(userId: String, _ request: SetLimitRequest) async throws -> LimitsResponse {
        guard limits.tiers.currencies.contains(request.currency) else {
            throw APIError(
                .unsupportedCurrency,
                "No limits apply in \(request.currency): choose one of \(limits.tiers.currencies.joined(separator: ", "))."
            )
        }
        guard (0...Currency.largestAmount).contains(request.amount) else {
            throw APIError(.invalidAmount, "amount must be from 0 to \(Currency.largestAmount) minor units.")
        }
        let now = clock.nowMillis()
        let current = try await database.read { sql in
            try await limits.effective(userId: userId, currency: request.currency, now: now, on: sql)[request.kind]
        }
        if let tierLimit = current?.tierLimit, request.amount > tierLimit {
            let money = Currency.named(request.currency)
            throw APIError(
                .limitAboveTier,
                "Your account's tier allows at most \(money.format(tierLimit)) for this limit; ask the operator for more."
            )
        }
        let lowering = current?.limit.map { request.amount <= $0 } ?? true
        if let assertion = request.stepUp {
            // A step-up sent is checked even where a lowering needs none: a malformed or wrong one is
            // refused, never passed over.
            _ = try await biometric.verifyAssertion(userId: userId, assertion, for: .stepUp)
        } else if !lowering {
            throw APIError(
                .stepUpRequired, "Raising a limit needs your passkey: send stepUp, an assertion from one of your keys.")
        }
        let own = current?.limit ?? request.amount
        let delay = limits.tiers.raiseDelaySeconds * 1000
        try await database.transaction { sql in
            try await sql.limits.set(
                userId: userId, currency: request.currency, kind: request.kind,
                amount: lowering ? request.amount : own, pending: lowering ? nil : (request.amount, now + delay),
                now: now)
        }
        return try await self.limits(userId: userId)
    }
}
