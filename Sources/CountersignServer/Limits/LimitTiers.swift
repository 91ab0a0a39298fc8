import CountersignAPI

/// The spending limits tiers an operator configures (`--limit-tier`), each with limits per currency
/// and kind in minor units; every user is in `defaultTier` until an operator assigns another
/// (`PUT /operator/users/{userId}/tier`). A currency or kind a tier does not name has no limit.
package struct LimitTiers: Sendable, Equatable {
    package var tiers: [String: [String: [SpendingLimitKind: Int64]]]
    package var defaultTier: String
    /// How long a raise the user asks for waits before it applies (`--limit-raise-delay`).
    package var raiseDelaySeconds: Int64

    package init(
        tiers: [String: [String: [SpendingLimitKind: Int64]]], defaultTier: String, raiseDelaySeconds: Int64 = 86_400
    ) {
        self.tiers = tiers
        self.defaultTier = defaultTier
        self.raiseDelaySeconds = raiseDelaySeconds
    }

    /// `standard` for everyone: ₦1,000,000 at once, ₦5,000,000 a day, ₦50,000,000 in 30 days and
    /// no balance cap; €10,000 / €20,000 / €100,000. `tier1` (a number proven, nothing more):
    /// ₦50,000 a day, ₦300,000 in 30 days and in the wallet; €150 / €500.
    package static let standard = LimitTiers(
        tiers: [
            "standard": [
                "NGN": [.perPayment: 100_000_000, .daily: 500_000_000, .rolling30Days: 5_000_000_000],
                "EUR": [.perPayment: 1_000_000, .daily: 2_000_000, .rolling30Days: 10_000_000],
            ],
            "tier1": [
                "NGN": [
                    .perPayment: 5_000_000, .daily: 5_000_000, .rolling30Days: 30_000_000, .maxBalance: 30_000_000,
                ],
                "EUR": [.perPayment: 15_000, .daily: 15_000, .rolling30Days: 50_000, .maxBalance: 50_000],
            ],
        ], defaultTier: "standard")

    /// The tier's limits of `currency` (empty: none).
    func limits(tier: String, currency: String) -> [SpendingLimitKind: Int64] {
        (tiers[tier] ?? tiers[defaultTier])?[currency] ?? [:]
    }

    /// Every currency any tier limits, sorted.
    var currencies: [String] { Set(tiers.values.flatMap(\.keys)).sorted() }
}
