import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// How the Stripe provider maps what Stripe says (or does not say) into `ProviderError`s, what it
/// refuses before calling Stripe, its configuration, and that its secret never reaches a log.
@Suite("Stripe provider errors and configuration")
struct StripeProviderErrorTests {
    typealias Provider = StripePaymentProviderTests

    @Test("not found, other customers' cards, cancel after success, unsupported numbers", arguments: TestEngines.all)
    func refusals(engine: DatabaseEngine) async throws {
        try await Provider.withProvider(engine) { provider, fake, database in
            let (ada, bob) = (try await Provider.user(database), try await Provider.user(database, name: "Bob"))
            let adas = try await provider.addCard(
                customerId: ada, number: "4242 4242 4242 4242", expMonth: 12, expYear: Provider.expYear)
            _ = try await provider.addCard(
                customerId: bob, number: "4242 4242 4242 4242", expMonth: 12, expYear: Provider.expYear)
            await #expect(throws: ProviderError.cardNotOwned) {
                try await Provider.pay(provider, card: adas.id, customer: bob)
            }
            await #expect(throws: ProviderError.paymentMethodNotFound("pm_nope")) {
                try await Provider.pay(provider, card: "pm_nope", customer: ada)
            }
            await #expect(throws: ProviderError.intentNotFound("pi_nope")) {
                try await provider.retrievePaymentIntent(id: "pi_nope")
            }
            let calls = fake.calls.count
            await #expect(throws: ProviderError.intentNotFound("pi_x/../../v1/customers")) {
                try await provider.retrievePaymentIntent(id: "pi_x/../../v1/customers")
            }
            #expect(fake.calls.count == calls, "an id that cannot be Stripe's never reaches a URL")

            let pending = try await Provider.pay(provider, method: .ideal, customer: ada)
            #expect(try await provider.cancelPaymentIntent(id: pending.id).status == .canceled)
            await #expect(throws: ProviderError.unexpectedState(.canceled)) {
                try await provider.cancelPaymentIntent(id: pending.id)
            }
            let paid = try await Provider.pay(provider, card: adas.id, customer: ada)
            await #expect(throws: ProviderError.unexpectedState(.succeeded)) {
                try await provider.cancelPaymentIntent(id: paid.id)
            }
            #expect(try await provider.retrievePaymentIntent(id: paid.id).status == .succeeded)

            await #expect(throws: ProviderError.unsupportedTestCard) {
                try await provider.addCard(
                    customerId: ada, number: "5555 5555 5555 4444", expMonth: 1, expYear: Provider.expYear)
            }
            await #expect(throws: ProviderError.invalidCardNumber) {
                try await provider.addCard(
                    customerId: ada, number: "4242 4242 4242 4241", expMonth: 1, expYear: Provider.expYear)
            }
            await #expect(throws: ProviderError.invalidExpiry) {
                try await provider.addCard(customerId: ada, number: "4242424242424242", expMonth: 1, expYear: 2001)
            }
            #expect(try await provider.listCards(customerId: ada).count == 1)
        }
    }

    @Test(
        "no answer, a refused key, Stripe's failures and timeouts are providerUnavailable; a retry reaches the same intent",
        arguments: TestEngines.all)
    func unavailable(engine: DatabaseEngine) async throws {
        try await Provider.withProvider(engine, timeout: .seconds(2)) { provider, fake, database in
            let customer = try await Provider.user(database)
            fake.failNext(status: 500)
            await #expect(throws: ProviderError.providerUnavailable) {
                try await Provider.pay(provider, method: .ideal, customer: customer, key: "k1")
            }
            fake.failNext(status: 503)
            await #expect(throws: ProviderError.providerUnavailable) {
                try await provider.retrievePaymentIntent(id: "pi_1")
            }

            // Stripe finishes a request whose client gave up: the retry with the same key is a replay.
            fake.stallNext(.seconds(4))
            await #expect(throws: ProviderError.providerUnavailable) {
                try await Provider.pay(provider, method: .ideal, customer: customer, key: "k2")
            }
            try await Task.sleep(for: .seconds(3))
            let retried = try await Provider.pay(provider, method: .ideal, customer: customer, key: "k2")
            #expect(retried.status == .requiresAction)
            #expect(fake.intents.count == 1 && fake.replays == 1)

            let wrongKey = try fake.configuration(secretKey: "sk_test_notTheRightKey000000000")
            let refused = StripePaymentProvider(
                configuration: wrongKey, database: database, clock: .system,
                logger: TestDatabase.logger)
            await #expect(throws: ProviderError.providerUnavailable) {
                try await refused.retrievePaymentIntent(id: retried.id)
            }
        }
        // Nothing listening at all.
        try await TestDatabase.with(.sqlite) { database in
            var nowhere = try StripeConfiguration(secretKey: FakeStripe.secretKey, baseURL: "http://127.0.0.1:1")
            nowhere.timeout = .seconds(2)
            let provider = StripePaymentProvider(
                configuration: nowhere, database: database, clock: .system,
                logger: TestDatabase.logger)
            await #expect(throws: ProviderError.providerUnavailable) {
                try await provider.retrievePaymentIntent(id: "pi_1")
            }
        }
    }

    @Test("live mode never takes a card number, and never calls Stripe to refuse it", arguments: TestEngines.all)
    func liveMode(engine: DatabaseEngine) async throws {
        try await Provider.withProvider(engine, secretKey: "sk_live_fakeCountersign0123456789") {
            provider, fake, database in
            let customer = try await Provider.user(database)
            await #expect(throws: ProviderError.cardEntryNotSupported) {
                try await provider.addCard(
                    customerId: customer, number: "4242 4242 4242 4242", expMonth: 12, expYear: Provider.expYear)
            }
            #expect(fake.calls.isEmpty)
        }
    }

    @Test("the secret key appears in no log line, whatever happens")
    func secretNeverLogged() async throws {
        let lines = RecordingLogHandler.Lines()
        // The calls before the stall must succeed even on a loaded machine (the whole suite runs at
        // once): a timeout of 5 s, and a stall past it.
        try await Provider.withProvider(.sqlite, timeout: .seconds(5), logger: RecordingLogHandler.logger(lines)) {
            provider, fake, database in
            let customer = try await Provider.user(database)
            for number in ["4242424242424242", "4000000000000341"] {
                let card = try await provider.addCard(
                    customerId: customer, number: number, expMonth: 12, expYear: Provider.expYear)
                _ = try await Provider.pay(provider, card: card.id, customer: customer)
            }
            _ = try? await provider.retrievePaymentIntent(id: "pi_missing")
            _ = try? await Provider.pay(provider, method: .ideal, customer: customer, amount: 1)
            fake.failNext(status: 500)
            _ = try? await provider.listCards(customerId: customer)
            fake.stallNext(.seconds(6))
            _ = try? await provider.listCards(customerId: customer)
            try await Task.sleep(for: .seconds(1))
        }
        #expect(lines.all.count >= 8, "\(lines.all)")
        #expect(lines.all.contains { $0.contains("stripe refused") && $0.contains("status=500") })
        #expect(!lines.all.contains { $0.contains(FakeStripe.secretKey) || $0.contains("Bearer") }, "\(lines.all)")
        let configuration = try StripeConfiguration(secretKey: FakeStripe.secretKey)
        #expect(
            !"\(configuration)".contains(FakeStripe.secretKey)
                && "\(configuration)" == "Stripe (test mode, https://api.stripe.com)")
    }

    @Test(
        "configuration: a key or a 0600 key file selects Stripe; nothing selects the simulator; bad keys and files are refused"
    )
    func configuration() throws {
        #expect(
            try StripeConfiguration.load(
                secretKey: nil, secretKeyFile: nil, webhookSecret: nil, webhookSecretFile: nil, baseURL: nil) == nil)
        #expect(
            try StripeConfiguration.load(
                secretKey: "", secretKeyFile: nil, webhookSecret: nil, webhookSecretFile: nil, baseURL: nil) == nil)
        let fromEnvironment = try #require(
            try StripeConfiguration.load(
                secretKey: FakeStripe.secretKey, secretKeyFile: nil, webhookSecret: FakeStripe.webhookSecret,
                webhookSecretFile: nil, baseURL: nil
            ))
        #expect(
            fromEnvironment.mode == .test && fromEnvironment.baseURL == "https://api.stripe.com"
                && fromEnvironment.webhookSecret == Array(FakeStripe.webhookSecret.utf8))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stripe-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("stripe-key").path
        #expect(
            FileManager.default.createFile(
                atPath: keyFile, contents: Data("sk_live_fromAFile0123456789\n".utf8),
                attributes: [.posixPermissions: 0o600]))
        let fromFile = try #require(
            try StripeConfiguration.load(
                secretKey: nil, secretKeyFile: keyFile, webhookSecret: nil, webhookSecretFile: nil, baseURL: nil))
        #expect(fromFile.mode == .live && fromFile.webhookSecret == nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile)
        #expect(throws: SecretError.self) {
            try StripeConfiguration.load(
                secretKey: nil, secretKeyFile: keyFile, webhookSecret: nil, webhookSecretFile: nil, baseURL: nil)
        }

        #expect(throws: StripeConfigurationError.self) {
            try StripeConfiguration(secretKey: "pk_test_publishable0123456789")
        }
        #expect(throws: StripeConfigurationError.self) {
            try StripeConfiguration(secretKey: FakeStripe.secretKey, baseURL: "http://api.example.com")
        }
        #expect(throws: StripeConfigurationError.self) {
            try StripeConfiguration(secretKey: FakeStripe.secretKey, baseURL: "http://127.0.0.1.example.com")
        }
        #expect(throws: StripeConfigurationError.self) {
            try StripeConfiguration.load(
                secretKey: nil, secretKeyFile: nil, webhookSecret: FakeStripe.webhookSecret, webhookSecretFile: nil,
                baseURL: nil)
        }
    }
}
