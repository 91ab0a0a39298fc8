/// How transfer fees are computed, per currency: a fixed part plus a percentage of the amount,
/// held between a minimum and a maximum. All in integer minor units; the percentage is in basis
/// points (1/100 of a percent) so that no floating point value ever touches money.
public struct FeeSchedule: Sendable, Hashable, Codable {
    /// The rule for one currency.
    public struct Rule: Sendable, Hashable, Codable {
        /// Charged on every transfer, in minor units.
        public var fixed: Int64
        /// Charged on the amount, in basis points (150 = 1.5%), rounded half-up to the minor unit.
        public var basisPoints: Int64
        /// The least total fee, in minor units.
        public var minimum: Int64
        /// The most total fee, in minor units.
        public var maximum: Int64

        /// A rule with every part given.
        public init(fixed: Int64, basisPoints: Int64, minimum: Int64, maximum: Int64) {
            self.fixed = fixed
            self.basisPoints = basisPoints
            self.minimum = minimum
            self.maximum = maximum
        }

        /// Why the rule cannot be used, if it can't.
        public var problem: String? {
            if fixed < 0 || basisPoints < 0 || minimum < 0 || maximum < 0 { return "amounts must not be negative" }
            if basisPoints > 10_000 { return "basisPoints must be at most 10000 (100%)" }
            if minimum > maximum { return "minimum must not exceed maximum" }
            if fixed > maximum { return "fixed must not exceed maximum" }
            return nil
        }
    }

    /// The rule for each currency code.
    public var rules: [String: Rule]
    /// The largest amount one transfer may carry, in minor units (keeps every product in 64 bits).
    public var maximumAmount: Int64

    /// A schedule.
    public init(rules: [String: Rule], maximumAmount: Int64 = 100_000_000_000) {
        self.rules = rules
        self.maximumAmount = maximumAmount
    }

    /// The defaults: NGN ₦10.00 + 0.5%, at least ₦10.00, at most ₦2,000.00; EUR €0.25 + 1%,
    /// at least €0.25, at most €25.00.
    public static let standard = FeeSchedule(rules: [
        "NGN": Rule(fixed: 1_000, basisPoints: 50, minimum: 1_000, maximum: 200_000),
        "EUR": Rule(fixed: 25, basisPoints: 100, minimum: 25, maximum: 2_500),
    ])

    /// Why the schedule cannot be used, naming the currency, if it can't.
    public var problem: String? {
        if maximumAmount <= 0 || maximumAmount > 1_000_000_000_000_000 {
            return "maximumAmount must be between 1 and 10^15"
        }
        for (currency, rule) in rules.sorted(by: { $0.key < $1.key }) {
            if let problem = rule.problem { return "\(currency): \(problem)" }
        }
        return nil
    }

    /// The fee lines for sending `amount` of `currency`: a fixed line and a percentage line, each
    /// shown only when not zero, adjusted so that their sum lies between the minimum and maximum.
    /// Nil when the currency has no rule or the amount is out of range.
    public func fees(amount: Int64, currency: String) -> [TransferQuote.Fee]? {
        guard let rule = rules[currency], amount > 0, amount <= maximumAmount else { return nil }
        // Half-up: (amount × bp + 5,000) ÷ 10,000. amount ≤ 10^15 and bp ≤ 10^4 keep it in 64 bits.
        let percentage = (amount * rule.basisPoints + 5_000) / 10_000
        let total = min(max(rule.fixed + percentage, rule.minimum), rule.maximum)
        // The fixed part is shown as it is; the percentage line absorbs the minimum and maximum.
        let percentageLine = total - rule.fixed
        var lines: [TransferQuote.Fee] = []
        if rule.fixed > 0 { lines.append(.init(name: "Transfer fee", amount: rule.fixed)) }
        if percentageLine > 0 {
            // The label says what was applied: the rate alone, or the cap or floor that replaced it.
            var rate = Self.percent(rule.basisPoints)
            if rule.fixed + percentage > rule.maximum {
                rate += ", capped at \(Currency.named(currency).format(percentageLine))"
            } else if rule.fixed + percentage < rule.minimum {
                rate += ", raised to the minimum of \(Currency.named(currency).format(percentageLine))"
            }
            lines.append(.init(name: "Service fee (\(rate))", amount: percentageLine))
        }
        return lines
    }

    private enum CodingKeys: String, CodingKey {
        case rules, maximumAmount
    }

    /// Reads `{"rules": {"NGN": {"fixed", "basisPoints", "minimum", "maximum"}}, "maximumAmount"?}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decode([String: Rule].self, forKey: .rules)
        maximumAmount = try container.decodeIfPresent(Int64.self, forKey: .maximumAmount) ?? 100_000_000_000
    }

    /// `150` → `1.5%`.
    package static func percent(_ basisPoints: Int64) -> String {
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        guard fraction != 0 else { return "\(whole)%" }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0\(fraction)" : String(fraction))
        return "\(whole).\(digits)%"
    }
}
