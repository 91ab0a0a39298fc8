import AsyncHTTPClient
import CountersignCore
import CountersignServer
import CountersignStore
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The simulated payment provider: test cards, saved cards, idempotency, and the hosted redirect
/// page over real HTTP, on every engine.
@Suite("Simulated payment provider")
struct SimulatedPaymentProviderTests {
    static let baseURL = "http://sim.countersign.test"
    /// A card expiry a few years ahead.
    static let expYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 3

    /// A provider on a fresh, migrated database.
    static func withProvider(
        _ engine: DatabaseEngine, _ body: @Sendable (SimulatedPaymentProvider, any Database) async throws -> Void
    ) async throws {
        try await TestDatabase.with(engine) { database in
            try await body(
                SimulatedPaymentProvider(database: database, clock: .system, publicBaseURL: baseURL), database)
        }
    }

    static func pay(
        _ provider: SimulatedPaymentProvider, method: PaymentMethodKind = .card, card: String? = nil,
        customer: String = "cus_a",
        amount: Int64 = 12_500, key: String = UUID().uuidString, returnURL: String? = "https://shop.test/return"
    ) async throws -> ProviderPaymentIntent {
        try await provider.createPaymentIntent(
            amount: amount, currency: "EUR", method: method, paymentMethodId: card, customerId: customer,
            orderId: "ord_1",
            returnURL: returnURL, idempotencyKey: key
        )
    }

    @Test("each test card's outcome", arguments: TestEngines.all)
    func testCards(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, _ in
            let cases: [(String, ProviderIntentStatus, String?)] = [
                ("4242 4242 4242 4242", .succeeded, nil),
                ("4000 0027 6000 3184", .requiresAction, nil),
                ("4000 0000 0000 0002", .requiresPaymentMethod, "card_declined"),
                ("4000 0000 0000 9995", .requiresPaymentMethod, "insufficient_funds"),
                ("5555 5555 5555 4444", .succeeded, nil),
            ]
            for (number, status, errorCode) in cases {
                let card = try await provider.addCard(
                    customerId: "cus_a", number: number, expMonth: 12, expYear: Self.expYear)
                let intent = try await Self.pay(provider, card: card.id)
                #expect(intent.status == status, "\(number)")
                #expect(intent.lastPaymentError?.code == errorCode, "\(number)")
                #expect(intent.paymentMethodId == card.id)
                #expect(intent.amount == 12_500 && intent.currency == "EUR" && intent.orderId == "ord_1")
                #expect(
                    intent.redirectURL == (status == .requiresAction ? "\(Self.baseURL)/sim/pay/\(intent.id)" : nil),
                    "\(number)")
                #expect(try await provider.retrievePaymentIntent(id: intent.id) == intent)
            }
            for method in [PaymentMethodKind.ideal, .bancontact] {
                let intent = try await Self.pay(provider, method: method)
                #expect(intent.status == .requiresAction)
                #expect(intent.redirectURL == "\(Self.baseURL)/sim/pay/\(intent.id)")
            }
        }
    }

    @Test(
        "saved cards: add, list per customer, another customer's card and invalid numbers refused",
        arguments: TestEngines.all)
    func savedCards(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, _ in
            let visa = try await provider.addCard(
                customerId: "cus_a", number: "4242424242424242", expMonth: 1, expYear: Self.expYear)
            let master = try await provider.addCard(
                customerId: "cus_a", number: "5555 5555 5555 4444", expMonth: 6, expYear: Self.expYear + 1)
            _ = try await provider.addCard(
                customerId: "cus_b", number: "4242 4242 4242 4242", expMonth: 2, expYear: Self.expYear + 2)
            #expect(
                visa.id.hasPrefix("pm_") && visa.brand == "visa" && visa.last4 == "4242" && visa.expMonth == 1
                    && visa.expYear == Self.expYear)
            #expect(master.brand == "mastercard")
            #expect(try await provider.listCards(customerId: "cus_a") == [visa, master])
            #expect(try await provider.listCards(customerId: "cus_c") == [])

            await #expect(throws: ProviderError.cardNotOwned) {
                try await Self.pay(provider, card: visa.id, customer: "cus_b")
            }
            await #expect(throws: ProviderError.paymentMethodNotFound("pm_nope")) {
                try await Self.pay(provider, card: "pm_nope")
            }
            for number in ["4242 4242 4242 4241", "4242-4242-4242-4242", "42424", "abcd"] {
                await #expect(throws: ProviderError.invalidCardNumber, "\(number)") {
                    try await provider.addCard(customerId: "cus_a", number: number, expMonth: 1, expYear: Self.expYear)
                }
            }
            await #expect(throws: ProviderError.invalidExpiry) {
                try await provider.addCard(
                    customerId: "cus_a", number: "4242424242424242", expMonth: 13, expYear: Self.expYear)
            }
            await #expect(throws: ProviderError.invalidExpiry) {
                try await provider.addCard(customerId: "cus_a", number: "4242424242424242", expMonth: 1, expYear: 2001)
            }
            #expect(try await provider.listCards(customerId: "cus_a").count == 2)
        }
    }

    @Test(
        "idempotency: one intent per key, even for ten concurrent creates; other parameters refused",
        arguments: TestEngines.all)
    func idempotency(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, database in
            let card = try await provider.addCard(
                customerId: "cus_a", number: "4242 4242 4242 4242", expMonth: 12, expYear: Self.expYear)
            let first = try await Self.pay(provider, card: card.id, key: "key-1")
            #expect(try await Self.pay(provider, card: card.id, key: "key-1") == first)

            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 { group.addTask { try await Self.pay(provider, method: .ideal, key: "key-2").id } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            let rows = try await database.read { sql in
                try await sql.first(
                    "SELECT COUNT(*) AS n FROM sim_payment_intents WHERE idempotency_key = $1", ["key-2"])?.int("n")
            }
            #expect(rows == 1)

            await #expect(throws: ProviderError.idempotencyKeyReused) {
                try await Self.pay(provider, card: card.id, amount: 99, key: "key-1")
            }
            await #expect(throws: ProviderError.idempotencyKeyReused) {
                try await Self.pay(provider, method: .bancontact, key: "key-2")
            }
            #expect(try await provider.retrievePaymentIntent(id: first.id) == first)
            await #expect(throws: ProviderError.intentNotFound("pi_nope")) {
                try await provider.retrievePaymentIntent(id: "pi_nope")
            }
        }
    }

    @Test("cancel: only before success", arguments: TestEngines.all)
    func cancel(engine: DatabaseEngine) async throws {
        try await Self.withProvider(engine) { provider, _ in
            let pending = try await Self.pay(provider, method: .ideal)
            #expect(try await provider.cancelPaymentIntent(id: pending.id).status == .canceled)
            await #expect(throws: ProviderError.unexpectedState(.canceled)) {
                try await provider.cancelPaymentIntent(id: pending.id)
            }
            let card = try await provider.addCard(
                customerId: "cus_a", number: "4242 4242 4242 4242", expMonth: 12, expYear: Self.expYear)
            let paid = try await Self.pay(provider, card: card.id)
            await #expect(throws: ProviderError.unexpectedState(.succeeded)) {
                try await provider.cancelPaymentIntent(id: paid.id)
            }
            #expect(try await provider.retrievePaymentIntent(id: paid.id).status == .succeeded)
        }
    }

    @Test(
        "iDEAL over the hosted page: authorize → succeeded and a 303 to the return URL; twice → 409",
        arguments: TestEngines.all)
    func hostedAuthorize(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            // Not the server's own instance but another on the same store, as a second process would
            // be: what the hosted page does shows here through the database alone.
            let provider = try #require(server.services.paymentProvider as? SimulatedPaymentProvider)
            let intent = try await Self.pay(provider, method: .ideal, returnURL: "https://shop.test/return?order=ord_1")
            let redirect = try #require(intent.redirectURL)
            #expect(redirect.hasSuffix("/sim/pay/\(intent.id)"))

            try await Self.withBrowser(server) { browser in
                let page = try await browser.send(.GET, "/sim/pay/\(intent.id)")
                #expect(page.status == 200)
                #expect(page.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
                #expect(
                    page.text.contains("125.00 EUR") && page.text.contains("iDEAL")
                        && page.text.contains("/sim/pay/\(intent.id)/authorize"))
                // A provider's page, styled and in test mode: its one stylesheet allowed by its hash, no other.
                #expect(page.text.contains("TEST MODE") && page.text.contains("iDEAL: approve in your bank"))
                let style = try #require(
                    page.text.range(of: "<style>").flatMap { start in
                        page.text.range(of: "</style>").map { String(page.text[start.upperBound..<$0.lowerBound]) }
                    })
                #expect(style.contains("min-height:52px"))
                let hash = "sha256-" + Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString()
                #expect(
                    page.headers.first(name: "Content-Security-Policy")
                        == "default-src 'none'; style-src '\(hash)'; frame-ancestors 'none'")

                let authorized = try await browser.send(.POST, "/sim/pay/\(intent.id)/authorize")
                #expect(authorized.status == 303)
                #expect(
                    authorized.headers.first(name: "Location")
                        == "https://shop.test/return?order=ord_1&payment_intent=\(intent.id)&redirect_status=succeeded")
                let paid = try await provider.retrievePaymentIntent(id: intent.id)
                #expect(paid.status == .succeeded && paid.redirectURL == nil && paid.lastPaymentError == nil)

                for path in ["authorize", "fail"] {
                    let again = try await browser.send(.POST, "/sim/pay/\(intent.id)/\(path)")
                    #expect(again.status == 409, "\(path): \(again.text)")
                    #expect(again.text.contains("payment_intent_unexpected_state"))
                }
                #expect(try await provider.retrievePaymentIntent(id: intent.id) == paid)

                let after = try await browser.send(.GET, "/sim/pay/\(intent.id)")
                #expect(after.status == 200 && !after.text.contains("/authorize") && after.text.contains("succeeded"))
                let unknown = try await browser.send(.POST, "/sim/pay/pi_nope/authorize")
                #expect(unknown.status == 404 && unknown.text.contains("payment_intent_not_found"))
            }
        }
    }

    @Test(
        "3-D Secure failed on the hosted page → requires_payment_method with payment_failed; walking away leaves requires_action",
        arguments: TestEngines.all)
    func hostedFailAndWalkAway(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let provider = try #require(server.services.paymentProvider as? SimulatedPaymentProvider)
            let card = try await provider.addCard(
                customerId: "cus_a", number: "4000 0027 6000 3184", expMonth: 12, expYear: Self.expYear)
            let secure = try await Self.pay(provider, card: card.id)
            let walkedAway = try await Self.pay(provider, method: .bancontact)
            try await Self.withBrowser(server) { browser in
                #expect(try await browser.send(.GET, "/sim/pay/\(secure.id)").status == 200)
                let failed = try await browser.send(.POST, "/sim/pay/\(secure.id)/fail")
                #expect(failed.status == 303)
                #expect(
                    failed.headers.first(name: "Location")
                        == "https://shop.test/return?payment_intent=\(secure.id)&redirect_status=failed")
                let afterFail = try await provider.retrievePaymentIntent(id: secure.id)
                #expect(
                    afterFail.status == .requiresPaymentMethod && afterFail.lastPaymentError?.code == "payment_failed")
                #expect(try await browser.send(.POST, "/sim/pay/\(secure.id)/authorize").status == 409)
                #expect(try await provider.retrievePaymentIntent(id: secure.id) == afterFail)

                // The payer opened the page and left without answering.
                #expect(try await browser.send(.GET, "/sim/pay/\(walkedAway.id)").status == 200)
            }
            let still = try await provider.retrievePaymentIntent(id: walkedAway.id)
            #expect(still == walkedAway && still.status == .requiresAction)
        }
    }

    @Test("the hosted page escapes what it shows, and needs no return URL")
    func hostedPageEscapes() async throws {
        try await LiveServer.run(.sqlite) { server in
            let provider = try #require(server.services.paymentProvider as? SimulatedPaymentProvider)
            let intent = try await provider.createPaymentIntent(
                amount: 1_999, currency: "eur", method: .bancontact, paymentMethodId: nil, customerId: nil,
                orderId: "<script>alert(1)</script>", returnURL: nil, idempotencyKey: "k"
            )
            try await Self.withBrowser(server) { browser in
                let page = try await browser.send(.GET, "/sim/pay/\(intent.id)")
                #expect(page.text.contains("19.99 EUR") && page.text.contains("Bancontact"))
                #expect(!page.text.contains("<script>") && page.text.contains("&lt;script&gt;"))
                #expect(page.headers.first(name: "X-Frame-Options") == "DENY")
                let done = try await browser.send(.POST, "/sim/pay/\(intent.id)/authorize")
                #expect(done.status == 200 && done.headers.first(name: "Location") == nil)
            }
            #expect(try await provider.retrievePaymentIntent(id: intent.id).status == .succeeded)
        }
    }

    @Test("publicBaseURL: http://localhost:<port> unless configured, without a trailing slash")
    func publicBaseURL() {
        var configuration = ServerConfiguration()
        configuration.port = 9090
        #expect(configuration.publicBaseURL == "http://localhost:9090")
        configuration.publicBaseURL = "https://pay.example/"
        #expect(configuration.publicBaseURL == "https://pay.example")
    }

    /// A browser that does not follow redirects, so the test sees the 303 itself.
    static func withBrowser(_ server: LiveServer, _ body: (APIClient) async throws -> Void) async throws {
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let browser = APIClient(baseURL: server.client.baseURL, http: http)
        do {
            try await body(browser)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}
