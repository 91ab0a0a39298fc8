/// A card number checked and classified by the simulated provider. The test numbers follow
/// Stripe's test mode; any other number that passes the Luhn check succeeds.
package struct TestCard: Sendable, Equatable {
    /// What confirming a payment with the card does.
    package enum Outcome: String, Sendable, CaseIterable {
        /// `succeeded` at once.
        case succeeds
        /// `requires_action`: 3-D Secure on the hosted page.
        case requiresAuthentication = "requires_authentication"
        /// Back to `requires_payment_method` with `card_declined` (`4000 0000 0000 0002`, and
        /// `4000 0000 0000 0341`, the card Stripe attaches and then fails to charge).
        case declined
        /// Back to `requires_payment_method` with `insufficient_funds`.
        case insufficientFunds = "insufficient_funds"
        /// Succeeds, but a refund of the payment stays `pending` until the simulator is told how it
        /// ends (`4000 0000 0000 5126`, Stripe's card whose refunds fail later).
        case refundStaysPending = "refund_stays_pending"
    }

    package let brand: String
    package let last4: String
    package let outcome: Outcome

    /// Checks `number` (digits, spaces allowed); nil if it is not a valid card number.
    package init?(number: String) {
        guard number.allSatisfy({ $0 == " " || $0.isASCII && $0.isNumber }) else { return nil }
        let digits = number.filter { $0 != " " }
        guard (12...19).contains(digits.count), Self.passesLuhn(digits) else { return nil }
        switch digits {
        case "4000002760003184": outcome = .requiresAuthentication
        case "4000000000000002", "4000000000000341": outcome = .declined
        case "4000000000009995": outcome = .insufficientFunds
        case "4000000000005126": outcome = .refundStaysPending
        default: outcome = .succeeds
        }
        brand = Self.brand(of: digits)
        last4 = String(digits.suffix(4))
    }

    /// The Luhn (mod 10) check: every second digit from the right doubled.
    static func passesLuhn(_ digits: String) -> Bool {
        let sum = digits.reversed().enumerated().reduce(0) { sum, pair in
            let digit = Int(pair.element.wholeNumberValue ?? 0)
            let value = pair.offset % 2 == 1 ? digit * 2 : digit
            return sum + (value > 9 ? value - 9 : value)
        }
        return sum % 10 == 0
    }

    static func brand(of digits: String) -> String {
        let two = Int(digits.prefix(2)) ?? 0
        let four = Int(digits.prefix(4)) ?? 0
        if digits.hasPrefix("4") { return "visa" }
        if (51...55).contains(two) || (2221...2720).contains(four) { return "mastercard" }
        if two == 34 || two == 37 { return "amex" }
        return "unknown"
    }
}
