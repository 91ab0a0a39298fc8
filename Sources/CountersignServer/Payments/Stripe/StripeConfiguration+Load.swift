import Foundation

extension StripeConfiguration {
    /// The Stripe configuration from a key given directly (the environment) or in a file (0600),
    /// the file winning; nil when neither is given, which selects the payment simulator. The
    /// webhook secret likewise. Throws a message naming what is wrong.
    package static func load(
        secretKey: String?, secretKeyFile: String?, webhookSecret: String?, webhookSecretFile: String?, baseURL: String?
    ) throws -> StripeConfiguration? {
        let key = try secretKeyFile.map { try read($0, what: "Stripe secret key") } ?? nonEmpty(secretKey)
        let webhook =
            try webhookSecretFile.map { try read($0, what: "Stripe webhook secret") } ?? nonEmpty(webhookSecret)
        guard let key else {
            if webhook != nil {
                throw StripeConfigurationError("a Stripe webhook secret is configured without a Stripe secret key")
            }
            return nil
        }
        return try StripeConfiguration(secretKey: key, baseURL: baseURL ?? defaultBaseURL, webhookSecret: webhook)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func read(_ path: String, what: String) throws -> String {
        guard let data = try SecretStore.contents(ofSecretFile: path) else {
            throw StripeConfigurationError("cannot read the \(what) file \(path)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
