extension StripePaymentProvider {
    /// Stripe's test PaymentMethods for the test numbers the simulator documents. Raw numbers never
    /// go to Stripe: in test mode a number picks one of these tokens, which Stripe turns into a
    /// new card attached to the customer. Stripe refuses to attach its decline cards (`…0002`,
    /// `…9995`: 402, answered here as 422 `card_declined` / `insufficient_funds`), so a card that
    /// is saved and then declined at payment is `…0341` (`pm_card_chargeCustomerFail`).
    static let testPaymentMethods: [String: String] = [
        "4242424242424242": "pm_card_visa",
        "4000002760003184": "pm_card_authenticationRequired",
        "4000000000000341": "pm_card_chargeCustomerFail",
        "4000000000000002": "pm_card_chargeDeclined",
        "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
    ]

    /// Test mode: attaches the Stripe test card for `number` to the customer. Live mode: refused,
    /// since cards are collected on the client with Stripe Elements or the mobile SDK.
    package func addCard(customerId: String, number: String, expMonth: Int, expYear: Int) async throws -> SavedCard {
        guard mode == .test else { throw ProviderError.cardEntryNotSupported }
        guard TestCard(number: number) != nil else { throw ProviderError.invalidCardNumber }
        try CardExpiry.check(month: expMonth, year: expYear, nowMillis: clock.nowMillis())
        guard let token = Self.testPaymentMethods[number.filter { $0 != " " }] else {
            throw ProviderError.unsupportedTestCard
        }
        guard !customerId.isEmpty else { throw ProviderError.invalidRequest("customerId is empty.") }
        var form = StripeForm()
        form["customer"] = try await stripeCustomer(for: customerId)
        return try Self.savedCard(try await call { try await api.post("/v1/payment_methods/\(token)/attach", form) })
    }

    /// The customer's cards, oldest first (Stripe lists newest first; one page of up to 100).
    package func listCards(customerId: String) async throws -> [SavedCard] {
        guard let customer = try await existingCustomer(customerId), let segment = Self.pathSegment(customer) else {
            return []
        }
        var query = StripeForm()
        query["type"] = "card"
        query["limit"] = "100"
        let page: StripeObject.List<StripeObject.PaymentMethod> = try await call {
            try await api.get("/v1/customers/\(segment)/payment_methods", query: query)
        }
        return try page.data.reversed().map(Self.savedCard)
    }

    /// The Stripe customer of `customerId` (our user id), created on first use. The idempotency key
    /// is the user's, so a retry or a racing request gets the same customer, never a second one.
    func stripeCustomer(for customerId: String) async throws -> String {
        if let existing = try await existingCustomer(customerId) { return existing }
        var form = StripeForm()
        form["metadata", "countersign_user_id"] = customerId
        let created: StripeObject.Customer = try await call {
            try await api.post("/v1/customers", form, idempotencyKey: "countersign-customer-\(customerId)")
        }
        let now = clock.nowMillis()
        return try await database.transaction { sql in
            try await sql.stripeCustomers.record(userId: customerId, mode: mode, customerId: created.id, now: now)
        }
    }

    func existingCustomer(_ customerId: String) async throws -> String? {
        return try await database.read { sql in try await sql.stripeCustomers.customerId(userId: customerId, mode: mode)
        }
    }

    /// The Stripe customer a card payment names, after checking with Stripe that the card is
    /// attached to that customer: another user's card is refused before any money moves.
    func owner(ofCard paymentMethodId: String, customerId: String?) async throws -> String {
        guard let segment = Self.pathSegment(paymentMethodId) else {
            throw ProviderError.paymentMethodNotFound(paymentMethodId)
        }
        let card: StripeObject.PaymentMethod = try await call(recover: { refusal in
            if refusal.status == 404 { throw ProviderError.paymentMethodNotFound(paymentMethodId) }
            return nil
        }) {
            try await api.get("/v1/payment_methods/\(segment)")
        }
        guard let customerId, let customer = try await existingCustomer(customerId), card.customer == customer else {
            throw ProviderError.cardNotOwned
        }
        return customer
    }

    static func savedCard(_ method: StripeObject.PaymentMethod) throws -> SavedCard {
        guard let card = method.card else { throw ProviderError.providerUnavailable }
        return SavedCard(
            id: method.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear)
    }
}
