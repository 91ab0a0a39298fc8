import CountersignAPI
import CountersignCore
import CountersignStore

/// The low-value allowance for payments authorized by the PIN alone (PSD2 RTS Art. 16): a PIN is
/// one factor, a passkey with user verification two. A PIN pays at most `maxAmount` at once and,
/// since the user's last two-factor payment, at most `cumulativeAmount` and `maxPayments` payments
/// in all, per currency; beyond it the payment needs the passkey (403
/// `strong_authentication_required`). A currency without a rule has no allowance.
package struct PinAllowance: Sendable, Equatable {
    /// One currency's allowance, in its minor units.
    package struct Rule: Sendable, Equatable {
        package var maxAmount: Int64
        package var cumulativeAmount: Int64
        package var maxPayments: Int64

        package init(maxAmount: Int64, cumulativeAmount: Int64, maxPayments: Int64 = 5) {
            self.maxAmount = maxAmount
            self.cumulativeAmount = cumulativeAmount
            self.maxPayments = maxPayments
        }
    }

    package var rules: [String: Rule]

    package init(rules: [String: Rule]) { self.rules = rules }

    /// The RTS's EUR 30 / 100 / 5; for NGN ₦50,000 at once and ₦150,000 in all.
    package static let standard = PinAllowance(rules: [
        "EUR": Rule(maxAmount: 3_000, cumulativeAmount: 10_000),
        "NGN": Rule(maxAmount: 5_000_000, cumulativeAmount: 15_000_000),
    ])

    /// No allowance: the PIN alone pays anything, any number of times (`serve --no-pin-allowance`, for
    /// load and crash tests that pay by PIN).
    package static let unlimited = PinAllowance(
        rules: Currency.known.keys.reduce(into: [:]) { rules, currency in
            rules[currency] = Rule(maxAmount: .max, cumulativeAmount: .max, maxPayments: .max)
        })

    /// Whether the PIN alone may pay `amount` of `currency` now; read-only, for the options, where
    /// the PIN path is offered. The debit decides (`spend`).
    func permits(userId: String, amount: Int64, currency: String, on sql: any SQLExecutor) async throws -> Bool {
        guard rules[currency] != nil else { return false }
        return permits(
            used: try await sql.limits.pinAllowanceUsed(userId: userId, currency: currency), amount: amount,
            currency: currency)
    }

    /// `permits`, given what was `used` of the allowance (a limits snapshot's `pinUsed`).
    func permits(used: (payments: Int64, total: Int64), amount: Int64, currency: String) -> Bool {
        guard let rule = rules[currency], amount > 0, amount <= rule.maxAmount else { return false }
        return used.payments < rule.maxPayments && used.total <= rule.cumulativeAmount - amount
    }

    /// Counts a PIN-only payment inside its debit's transaction, or throws 403
    /// `strong_authentication_required` (the caller's transaction then writes nothing). One guarded
    /// UPDATE: parallel PIN payments serialize on the row, so together they never pass the allowance.
    func spend(userId: String, amount: Int64, currency: String, on sql: any SQLExecutor) async throws {
        guard let rule = rules[currency], amount > 0, amount <= rule.maxAmount else { throw refusal(currency) }
        guard
            try await sql.limits.spendPinAllowance(
                userId: userId, currency: currency, amount: amount, maxPayments: rule.maxPayments,
                cumulativeAmount: rule.cumulativeAmount)
        else { throw refusal(currency) }
    }

    /// A two-factor payment of the user's: the allowance starts again, in every currency.
    func renew(userId: String, on sql: any SQLExecutor) async throws {
        try await sql.limits.renewPinAllowance(userId: userId)
    }

    /// 403 `strong_authentication_required`, saying what the PIN alone may pay.
    func refusal(_ currency: String) -> APIError {
        guard let rule = rules[currency] else {
            return APIError(
                .strongAuthenticationRequired,
                "Payments in \(currency) need your passkey: confirm this one with it, or add a passkey under Keys.")
        }
        let money = Currency.named(currency)
        return APIError(
            .strongAuthenticationRequired,
            "This payment needs your passkey. The PIN alone pays at most \(money.format(rule.maxAmount)) at once, "
                + "and \(money.format(rule.cumulativeAmount)) or \(rule.maxPayments) payments in all between "
                + "passkey payments. Confirm it with your passkey (add one under Keys if you have none).")
    }
}
