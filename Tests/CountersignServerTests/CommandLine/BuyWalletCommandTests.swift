import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `countersign buy --method wallet` against a `countersign serve` process: a profile without a
/// device key pays from the EUR wallet with the account PIN, once, within the PIN's allowance; the
/// server agrees, and refuses the PIN beyond it.
@Suite("countersign buy from the wallet")
struct BuyWalletCommandTests {
    @Test(
        "buy now from the EUR wallet with the PIN: paid once within the allowance, refused beyond it",
        arguments: TestEngines.all)
    func buyFromWallet(engine: DatabaseEngine) async throws {
        try await ServeProcess.with(engine) { server, _ in
            let api = server.client
            let buyerPhone = TestPhones.next()
            let buyer = try await api.post(
                "/auth/signup", try await api.signupBody(phone: buyerPhone, name: "Buyer", pin: "4827")
            ).decode(SessionResponse.self)
            // €150 into the EUR wallet by a card funding at the simulator.
            let card = try await api.post(
                "/payment-methods/cards",
                AddCardRequest(
                    number: "4242 4242 4242 4242", expMonth: 12, expYear: SimulatedPaymentProviderTests.expYear),
                token: buyer.sessionToken
            ).decode(SavedCardResponse.self)
            let funded = try await api.post(
                "/wallet/fundings",
                CreateFundingRequest(amount: 15_000, currency: "EUR", method: .card, paymentMethodId: card.id),
                token: buyer.sessionToken, headers: [("Idempotency-Key", UUID().uuidString)])
            try #require(funded.status == 201, "\(funded.text)")

            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-buy-wallet-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let run = { (arguments: [String], profile: String) in
                try await CommandLineTests.run(
                    arguments + ["--profile", root + "/" + profile],
                    environment: ["COUNTERSIGN_SERVER": api.baseURL, "DATABASE_URL": ""])
            }
            let sellerSignup = try await run(
                ["signup", "--phone", TestPhones.next(), "--name", "Seller", "--pin", "4827", "--code-from-simulator"],
                "seller")
            #expect(sellerSignup.status == 0, "\(sellerSignup.output)")
            let listed = try await run(["sell", "--title", "Chair", "--price", "25"], "seller")
            let product = try #require(
                listed.output.firstMatch(of: /Listed (prd_[A-Za-z0-9_-]+)/).map { String($0.1) }, "\(listed.output)")
            let sofa = try await run(["sell", "--title", "Sofa", "--price", "100"], "seller")
            let expensive = try #require(
                sofa.output.firstMatch(of: /Listed (prd_[A-Za-z0-9_-]+)/).map { String($0.1) }, "\(sofa.output)")
            let login = try await run(
                ["login", "--phone", buyerPhone, "--pin", "4827", "--code-from-simulator"], "buyer")
            #expect(login.status == 0, "\(login.output)")

            let paid = try await run(
                ["buy", product, "--delivery", "pickup", "--method", "wallet", "--pin", "4827", "--yes"], "buyer")
            #expect(paid.status == 0, "\(paid.output)")
            #expect(paid.output.contains("paying from the wallet"), "\(paid.output)")
            var wallet = try await api.get("/user/wallet", token: buyer.sessionToken).decode(WalletResponse.self)
            #expect(wallet.wallets.first(where: { $0.currency == "EUR" })?.balance == 12_500, "\(wallet)")
            let history = try await api.get("/user/transactions?currency=EUR", token: buyer.sessionToken)
                .decode(TransactionPage.self)
            let line = try #require(history.transactions.first { $0.type == "order_payment" }, "\(history)")
            #expect(line.amount == 2_500 && line.authorizedBy == "pin" && line.counterpartyName == "Seller")
            #expect(line.note == "Chair")

            // €100 is beyond what the PIN alone may pay (€30 at once): refused, nothing taken.
            let refused = try await run(
                ["buy", expensive, "--delivery", "pickup", "--method", "wallet", "--pin", "4827", "--yes"], "buyer")
            #expect(refused.status != 0, "\(refused.output)")
            #expect(refused.output.contains("strong_authentication_required"), "\(refused.output)")
            wallet = try await api.get("/user/wallet", token: buyer.sessionToken).decode(WalletResponse.self)
            #expect(wallet.wallets.first(where: { $0.currency == "EUR" })?.balance == 12_500, "\(wallet)")
        }
    }
}
