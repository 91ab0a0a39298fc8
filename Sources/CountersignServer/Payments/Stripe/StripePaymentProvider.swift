import AsyncHTTPClient
import CountersignCore
import CountersignStore
import Logging

/// The payment provider that speaks Stripe's REST API (PaymentIntents, Customers, PaymentMethods),
/// chosen when a Stripe secret key is configured. Every intent is created and confirmed in one
/// call (`confirm=true`) under the caller's idempotency key, so a retry reaches the same intent.
/// A declined card is an outcome (Stripe's 402 carries the intent, back in
/// `requires_payment_method`); anything that says nothing about the payment (no answer, our key
/// refused, Stripe's own failures) is `ProviderError.providerUnavailable`. Tested against a local
/// fake of Stripe's documented behaviour, never against Stripe itself (see docs/stripe.md).
package struct StripePaymentProvider: PaymentProvider {
    let api: StripeAPI
    let database: any Database
    let clock: WallClock

    package init(
        configuration: StripeConfiguration, database: any Database, clock: WallClock,
        http: HTTPClient = .shared, logger: Logger
    ) {
        self.api = StripeAPI(configuration: configuration, http: http, logger: logger)
        self.database = database
        self.clock = clock
    }

    var mode: StripeConfiguration.Mode { api.configuration.mode }

    package func createPaymentIntent(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String?, customerId: String?,
        orderId: String, returnURL: String?, idempotencyKey: String
    ) async throws -> ProviderPaymentIntent {
        var form = StripeForm()
        form["amount"] = String(amount)
        form["currency"] = currency.lowercased()
        form.append(method.rawValue, to: "payment_method_types")
        form["confirm"] = "true"
        form["return_url"] = returnURL
        form["metadata", "order_id"] = orderId
        guard returnURL != nil else {
            throw ProviderError.invalidRequest("returnURL is required for \(method.rawValue) payments with Stripe.")
        }
        switch method {
        case .card:
            guard let paymentMethodId else {
                throw ProviderError.invalidRequest("paymentMethodId is required for a card payment.")
            }
            form["customer"] = try await owner(ofCard: paymentMethodId, customerId: customerId)
            form["payment_method"] = paymentMethodId
        case .wallet:
            // Paid inside the ledger; never sent to the provider.
            throw ProviderError.invalidRequest("The wallet is not a payment provider's method.")
        case .ideal, .bancontact:
            form["payment_method_data", "type"] = method.rawValue
            if method == .bancontact {
                form["payment_method_data", "billing_details", "name"] = try await payerName(customerId)
            }
        }
        return try await call(recover: { refusal in
            // A declined card: 402, with the intent it left in requires_payment_method.
            guard refusal.status == 402, let declined = refusal.failure.paymentIntent?.intent else { return nil }
            return try Self.intent(declined)
        }) {
            try Self.intent(try await api.post("/v1/payment_intents", form, idempotencyKey: idempotencyKey))
        }
    }

    /// Every method: Stripe refuses a bank redirect confirmed without a `return_url`, and a card
    /// that turns out to need 3-D Secure gets `next_action.use_stripe_sdk` instead of a redirect,
    /// which leaves a server-side confirmation with nothing the payer can act on. Whether a card
    /// needs 3-D Secure is only known once Stripe answers, so every card carries one.
    package func requiresReturnURL(_ method: PaymentMethodKind) -> Bool { true }

    package func retrievePaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        guard let segment = Self.pathSegment(id) else { throw ProviderError.intentNotFound(id) }
        return try await call(recover: { refusal in
            if refusal.status == 404 { throw ProviderError.intentNotFound(id) }
            return nil
        }) {
            try Self.intent(try await api.get("/v1/payment_intents/\(segment)"))
        }
    }

    package func cancelPaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        guard let segment = Self.pathSegment(id) else { throw ProviderError.intentNotFound(id) }
        return try await call(recover: { refusal in
            if refusal.status == 404 { throw ProviderError.intentNotFound(id) }
            if refusal.failure.code == "payment_intent_unexpected_state" {
                let current = refusal.failure.paymentIntent.flatMap { ProviderIntentStatus(rawValue: $0.intent.status) }
                throw ProviderError.unexpectedState(current ?? .succeeded)
            }
            return nil
        }) {
            try Self.intent(try await api.post("/v1/payment_intents/\(segment)/cancel"))
        }
    }

    /// Runs Stripe calls, turning Stripe's refusals into `ProviderError`s, except those `recover`
    /// answers (or rethrows as something more precise).
    func call<T>(recover: (StripeRequestError) throws -> T? = { _ in nil }, _ body: () async throws -> T) async throws
        -> T
    {
        do {
            return try await body()
        } catch let refusal as StripeRequestError {
            if let recovered = try recover(refusal) { return recovered }
            throw refusal.providerError
        }
    }

    /// The name Bancontact requires in `billing_details`.
    func payerName(_ customerId: String?) async throws -> String {
        guard let customerId,
            let payer = try await database.read({ sql in try await sql.users.find(id: customerId) })
        else {
            throw ProviderError.invalidRequest("Bancontact needs the payer's name: no such customer.")
        }
        return payer.name
    }

    /// Stripe's ids are `prefix_` and base-62; anything else cannot be one and never reaches a URL.
    static func pathSegment(_ id: String) -> String? {
        (1...255).contains(id.utf8.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            ? id : nil
    }
}
