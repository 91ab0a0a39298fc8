import CountersignAPI
import CountersignStore

extension OperatorConsole {
    /// Puts `userId` in the limits tier `tier` (422 `unknown_tier` for one the server is not
    /// configured with), recorded as `assign_tier` with the tier before and after.
    package func assignTier(operatorId: String, userId: String, tier: String, pin: String) async throws {
        guard limitTiers.tiers[tier] != nil else {
            throw APIError(
                .unknownTier,
                "No tier is called \(tier): use one of \(limitTiers.tiers.keys.sorted().joined(separator: ", ")).")
        }
        try await confirm(operatorId: operatorId, pin: pin, target: userId)
        let (now, fallback) = (clock.nowMillis(), limitTiers.defaultTier)
        try await database.transaction { sql in
            guard try await sql.operators.account(userId: userId) != nil else { throw Self.unknownUser }
            let before =
                try await sql.limits.assignedTier(userId: userId) ?? fallback
            try await sql.limits.assignTier(userId: userId, tier: tier, now: now)
            try await sql.operators.record(
                Self.action(
                    "assign_tier", operatorId: operatorId, target: userId, now: now, detail: "tier \(before) → \(tier)")
            )
        }
    }
}
