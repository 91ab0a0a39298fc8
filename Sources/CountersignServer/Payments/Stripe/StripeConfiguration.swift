import Foundation

/// How to reach Stripe: the secret key (from `STRIPE_SECRET_KEY` or a 0600 key file, never a
/// literal), the webhook signing secret, and the API's address. Printing it never shows a secret.
package struct StripeConfiguration: Sendable, CustomStringConvertible {
    /// Test keys reach Stripe's test mode, where the documented test cards work; live keys move money.
    package enum Mode: String, Sendable {
        case test
        case live
    }

    /// The API version every request pins with `Stripe-Version`, so an account upgrade in Stripe's
    /// dashboard cannot change the shapes this provider reads.
    package static let apiVersion = "2024-06-20"
    package static let defaultBaseURL = "https://api.stripe.com"

    let secretKey: String
    /// Where the API is: Stripe, or a local fake in tests. No trailing slash.
    package let baseURL: String
    /// `whsec_…`, the secret `Stripe-Signature` webhooks are checked with; nil refuses them.
    package let webhookSecret: [UInt8]?
    /// How long one request may take before it counts as a failure.
    package var timeout: Duration = .seconds(30)

    /// Checks the key's shape; throws a message naming what is wrong.
    package init(secretKey: String, baseURL: String = defaultBaseURL, webhookSecret: String? = nil)
        throws(StripeConfigurationError)
    {
        let key = secretKey.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.keyPrefixes.contains(where: key.hasPrefix), key.count > 12,
            key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw StripeConfigurationError(
                "the Stripe secret key must be a secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…)")
        }
        let address = URLComponents(string: baseURL)
        let loopback = address?.scheme == "http" && ["127.0.0.1", "localhost"].contains(address?.host ?? "")
        guard address?.scheme == "https" && address?.host?.isEmpty == false || loopback else {
            throw StripeConfigurationError(
                "the Stripe API base URL must be https (plain http only on loopback, for a local fake)")
        }
        if let webhookSecret, webhookSecret.isEmpty { throw StripeConfigurationError("STRIPE_WEBHOOK_SECRET is empty") }
        self.secretKey = key
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.webhookSecret = webhookSecret.map { Array($0.utf8) }
    }

    /// Test or live, from the key.
    package var mode: Mode { secretKey.contains("_test_") ? .test : .live }

    /// `Stripe (test mode, https://api.stripe.com)`: never the key.
    package var description: String { "Stripe (\(mode.rawValue) mode, \(baseURL))" }

    private static let keyPrefixes = ["sk_test_", "sk_live_", "rk_test_", "rk_live_"]
}

/// Why the Stripe configuration was refused; start-up stops with this message.
package struct StripeConfigurationError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
