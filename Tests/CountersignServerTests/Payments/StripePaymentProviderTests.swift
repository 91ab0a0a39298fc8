import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Logging
import Testing

/// The Stripe provider against the local fake Stripe, over real HTTP on loopback, on every engine
/// (the customer mapping is in the database): each outcome, saved cards, idempotency, and the
/// form encoding of nested parameters.
@Suite("Stripe payment provider")
struct StripePaymentProviderTests {
    static let expYear = SimulatedPaymentProviderTests.expYear

    /// A fake Stripe, a fresh database, and a provider pointing at the fake.
    static func withProvider(
        _ engine: DatabaseEngine, secretKey: String = FakeStripe.secretKey, timeout: Duration = .seconds(10),
        logger: Logger = TestDatabase.logger,
        _ body: @Sendable (StripePaymentProvider, FakeStripe, any Database) async throws -> Void
    ) async throws {
        try await FakeStripe.run { fake in
            try await TestDatabase.with(engine) { database in
                let configuration = try fake.configuration(secretKey: secretKey, timeout: timeout)
                let provider = StripePaymentProvider(
                    configuration: configuration, database: database, clock: .system,
                    logger: logger)
                try await body(provider, fake, database)
                #expect(fake.unexpected.isEmpty, "requests the fake does not know: \(fake.unexpected)")
            }
        }
    }

    /// A user row (Bancontact needs the payer's name); returns the id.
    static func user(_ database: any Database, name: String = "Ada Lovelace") async throws -> String {
        let id = "usr_" + UUID().uuidString.prefix(8).lowercased()
        _ = try await database.transaction { sql in
            try await sql.users.create(
                id: id, phone: TestPhones.next(), name: name, pinHash: "x", userHandle: id, now: 0)
        }
        return id
    }

    static func pay(
        _ provider: StripePaymentProvider, method: PaymentMethodKind = .card, card: String? = nil, customer: String,
        orderId: String = "ord_1",
        amount: Int64 = 12_500, key: String = UUID().uuidString, returnURL: String? = "https://shop.test/return"
    ) async throws -> ProviderPaymentIntent {
        try await provider.createPaymentIntent(
            amount: amount, currency: "EUR", method: method, paymentMethodId: card, customerId: customer,
            orderId: orderId,
            returnURL: returnURL, idempotencyKey: key
        )
    }

    @Test(
        "each test card and bank method: Stripe's outcome as an intent, retrieved the same", arguments: TestEngines.all)
    func outcomes(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, fake, database in
            let customer = try await Self.user(database)
            let cases: [(String, ProviderIntentStatus, String?, String?)] = [
                ("4242 4242 4242 4242", .succeeded, nil, nil),
                ("4000 0027 6000 3184", .requiresAction, nil, "https://hooks.stripe.com/3d_secure_2/hosted?"),
                ("4000 0000 0000 0341", .requiresPaymentMethod, "card_declined", nil),
            ]
            var saved: [SavedCard] = []
            for (number, status, errorCode, redirect) in cases {
                let card = try await provider.addCard(
                    customerId: customer, number: number, expMonth: 12, expYear: Self.expYear)
                saved.append(card)
                #expect(
                    card.id.hasPrefix("pm_") && card.brand == "visa" && card.last4 == String(number.suffix(4)),
                    "\(number)")
                let intent = try await Self.pay(provider, card: card.id, customer: customer)
                #expect(intent.status == status, "\(number)")
                #expect(intent.lastPaymentError?.code == errorCode, "\(number)")
                #expect(
                    intent.redirectURL.map { redirect.map($0.hasPrefix) ?? false } ?? (redirect == nil),
                    "\(number): \(intent.redirectURL ?? "-")")
                #expect(
                    intent.amount == 12_500 && intent.currency == "EUR" && intent.orderId == "ord_1"
                        && intent.method == .card)
                #expect(intent.paymentMethodId == (errorCode == nil ? card.id : nil), "\(number)")
                #expect(try await provider.retrievePaymentIntent(id: intent.id) == intent, "\(number)")
                #expect(fake.intent(intent.id)?.metadata == ["order_id": "ord_1"])
            }
            #expect(try await provider.listCards(customerId: customer) == saved)
            #expect(try await provider.listCards(customerId: "usr_nobody") == [])

            for method in [PaymentMethodKind.ideal, .bancontact] {
                let intent = try await Self.pay(provider, method: method, customer: customer)
                #expect(intent.status == .requiresAction && intent.method == method && intent.paymentMethodId == nil)
                #expect(intent.redirectURL?.hasPrefix("https://pm-redirects.stripe.com/authorize/") == true)
                let stored = try #require(fake.intent(intent.id))
                #expect(
                    stored.paymentMethodTypes == [method.rawValue] && stored.returnURL == "https://shop.test/return")
                try fake.completeRedirect(intent.id)
                #expect(try await provider.retrievePaymentIntent(id: intent.id).status == .succeeded)
                await #expect(
                    throws: ProviderError.invalidRequest(
                        "returnURL is required for \(method.rawValue) payments with Stripe.")
                ) {
                    try await Self.pay(provider, method: method, customer: customer, returnURL: nil)
                }
            }

            // 3-D Secure failed: back to requires_payment_method, in the simulator's words.
            let threeDS = try #require(saved.first { $0.last4 == "3184" })
            let failing = try await Self.pay(provider, card: threeDS.id, customer: customer)
            try fake.failRedirect(failing.id)
            let failed = try await provider.retrievePaymentIntent(id: failing.id)
            #expect(
                failed.status == .requiresPaymentMethod && failed.lastPaymentError?.code == "payment_failed"
                    && failed.redirectURL == nil)
        }
    }

    @Test(
        "Stripe's decline cards are refused when saved (402 → card_declined / insufficient_funds); …0341 saves and is declined at payment",
        arguments: TestEngines.all)
    func declineCardsRefusedAtAttach(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, fake, database in
            let customer = try await Self.user(database)
            for (number, code) in [
                ("4000 0000 0000 0002", "card_declined"), ("4000 0000 0000 9995", "insufficient_funds"),
            ] {
                let refusal = await #expect(throws: ProviderError.self) {
                    try await provider.addCard(
                        customerId: customer, number: number, expMonth: 12, expYear: Self.expYear)
                }
                #expect(
                    refusal?.code.rawValue == code
                        && refusal?.description.hasSuffix(
                            "Your card " + (code == "card_declined" ? "was declined." : "has insufficient funds."))
                            == true,
                    "\(number)")
            }
            #expect(try await provider.listCards(customerId: customer).isEmpty)
            let card = try await provider.addCard(
                customerId: customer, number: "4000000000000341", expMonth: 12, expYear: Self.expYear)
            #expect(fake.paymentMethod(card.id)?.customer != nil && card.last4 == "0341")
            #expect(fake.calls.contains { $0.path == "/v1/payment_methods/pm_card_chargeCustomerFail/attach" })
            let declined = try await Self.pay(provider, card: card.id, customer: customer)
            #expect(declined.status == .requiresPaymentMethod && declined.lastPaymentError?.code == "card_declined")
        }
    }

    @Test(
        "a card without returnURL is refused before Stripe is called (3-D Secure would leave nothing to act on); with one, 3-D Secure redirects",
        arguments: TestEngines.all)
    func cardNeedsReturnURL(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, fake, database in
            let customer = try await Self.user(database)
            let card = try await provider.addCard(
                customerId: customer, number: "4000 0027 6000 3184", expMonth: 12, expYear: Self.expYear)
            #expect(provider.requiresReturnURL(.card) && provider.requiresReturnURL(.ideal))
            await #expect(throws: ProviderError.invalidRequest("returnURL is required for card payments with Stripe."))
            {
                try await Self.pay(provider, card: card.id, customer: customer, returnURL: nil)
            }
            #expect(fake.intents.isEmpty)
            let intent = try await Self.pay(
                provider, card: card.id, customer: customer, returnURL: "https://shop.test/return")
            #expect(
                intent.status == .requiresAction
                    && intent.redirectURL?.hasPrefix("https://hooks.stripe.com/3d_secure_2/hosted?") == true)
            #expect(
                fake.intent(intent.id)?.nextAction == [
                    "type": "redirect_to_url",
                    "redirect_to_url": [
                        "url": .string(intent.redirectURL ?? ""), "return_url": "https://shop.test/return",
                    ],
                ])
        }
    }

    @Test(
        "idempotency: a replay is the same intent; other parameters are refused; one customer per user",
        arguments: TestEngines.all)
    func idempotency(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, fake, database in
            let customer = try await Self.user(database)
            let card = try await provider.addCard(
                customerId: customer, number: "4242424242424242", expMonth: 12, expYear: Self.expYear)
            let first = try await Self.pay(provider, card: card.id, customer: customer, key: "order_ord_1_1")
            #expect(try await Self.pay(provider, card: card.id, customer: customer, key: "order_ord_1_1") == first)
            #expect(fake.replays == 1)
            #expect(fake.intents.count == 1)
            await #expect(throws: ProviderError.idempotencyKeyReused) {
                try await Self.pay(provider, card: card.id, customer: customer, amount: 9_900, key: "order_ord_1_1")
            }

            // Five cards added at once for a new user: one Stripe customer, all five cards on it.
            let other = try await Self.user(database)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        _ = try await provider.addCard(
                            customerId: other, number: "4242 4242 4242 4242", expMonth: 1, expYear: Self.expYear)
                    }
                }
                try await group.waitForAll()
            }
            #expect(fake.customers.values.filter { $0["countersign_user_id"] == other }.count == 1)
            #expect(try await provider.listCards(customerId: other).count == 5)

            // Every create carried a key; every request pinned the API version and sent the key as a bearer token.
            let creates = fake.calls.filter {
                $0.method == "POST" && ["/v1/payment_intents", "/v1/customers"].contains($0.path)
            }
            #expect(!creates.isEmpty && creates.allSatisfy { $0.idempotencyKey != nil })
            #expect(
                fake.calls.allSatisfy {
                    $0.stripeVersion == StripeConfiguration.apiVersion
                        && $0.authorization == "Bearer \(FakeStripe.secretKey)"
                })
        }
    }

    @Test(
        "nested parameters are form-encoded in bracket notation, and awkward characters survive",
        arguments: TestEngines.all)
    func formEncoding(engine: DatabaseEngine) async throws {
        var form = StripeForm()
        form["amount"] = "1250"
        form["metadata", "order_id"] = "a&b=c+d e/ü"
        form.append("card", to: "payment_method_types")
        form["payment_method_data", "billing_details", "name"] = "Zoë"
        form["skipped"] = nil
        #expect(
            form.encoded
                == "amount=1250&metadata[order_id]=a%26b%3Dc%2Bd%20e%2F%C3%BC&payment_method_types[]=card&payment_method_data[billing_details][name]=Zo%C3%AB"
        )
        // Brackets stay literal in keys only: in a value both are escaped (an opening one once slipped through).
        var brackets = StripeForm()
        brackets["metadata", "note"] = "[x]"
        #expect(brackets.encoded == "metadata[note]=%5Bx%5D")

        try await Self.withProvider(engine) { provider, fake, database in
            let name = "Zoë D'Hondt & Co+1 = ok?"
            let orderId = "ord_ä&=+ /x"
            let customer = try await Self.user(database, name: name)
            let intent = try await Self.pay(
                provider, method: .bancontact, customer: customer, orderId: orderId,
                returnURL: "https://shop.test/return?a=1&b=2")
            #expect(intent.orderId == orderId)
            let stored = try #require(fake.intent(intent.id))
            #expect(stored.metadata == ["order_id": orderId] && stored.returnURL == "https://shop.test/return?a=1&b=2")
            let method = try #require(stored.paymentMethod.flatMap(fake.paymentMethod))
            #expect(method.type == "bancontact" && method.billingName == name)
            let body = try #require(fake.calls.last { $0.path == "/v1/payment_intents" }?.body)
            #expect(
                body.contains("payment_method_types[]=bancontact")
                    && body.contains("payment_method_data[billing_details][name]=") && body.contains("confirm=true"))
        }
    }
}
