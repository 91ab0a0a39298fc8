import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// A wallet per currency: balances and history apart, funding into the one named, nothing converted.
@Suite("Wallets per currency")
struct WalletCurrencyTests {
    @Test("each currency has its own wallet; funding one leaves the others alone", arguments: TestEngines.all)
    func separateWallets(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let fresh = try await server.wallet(user)
            #expect(fresh.currency == "NGN" && fresh.balance == 0)
            #expect(fresh.wallets.map(\.currency) == ["NGN", "EUR"])

            _ = try await server.services.wallets.fund(
                phone: user.phone, amount: 1_250, currency: "EUR", reference: nil)
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 700, reference: nil)
            let wallet = try await server.wallet(user)
            #expect(wallet.balance == 700, "the primary fields stay the NGN wallet's")
            #expect(wallet.wallet("EUR")?.balance == 1_250)
            #expect(wallet.wallet("NGN")?.balance == 700)

            let euros = try await server.client.get("/user/transactions?currency=EUR", token: user.token)
                .decode(TransactionPage.self)
            #expect(euros.transactions.map(\.currency) == ["EUR"])
            #expect(euros.transactions.map(\.amount) == [1_250])
            let all = try await server.client.get("/user/transactions", token: user.token).decode(TransactionPage.self)
            #expect(all.transactions.count == 2)
            #expect(
                try await server.client.get("/user/transactions?currency=USD", token: user.token).errorCode
                    == "unsupported_currency")

            await #expect(throws: APIError.self) {
                _ = try await server.services.wallets.fund(
                    phone: user.phone, amount: 1, currency: "USD", reference: nil)
            }
            #expect(try await server.wallet(user).wallets.map(\.balance) == [700, 1_250])
        }
    }

    @Test("the operator console funds the wallet in the currency asked for", arguments: TestEngines.all)
    func consoleFundsCurrency(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await OperatorConsoleTests.makeOperator(server)
            let user = try await server.signup()
            let path = "/operator/users/\(user.userId)/fund"
            let funded = try await server.client.post(
                path, OperatorFundRequest(pin: admin.pin, amount: 5_000, currency: "EUR"), token: admin.token,
                headers: [("Idempotency-Key", "eur-1")])
            #expect(funded.status == 201)
            let funding = try funded.decode(OperatorFunding.self)
            #expect(funding.currency == "EUR" && funding.balance == 5_000)
            // The same key for the other wallet is another request.
            let reused = try await server.client.post(
                path, OperatorFundRequest(pin: admin.pin, amount: 5_000), token: admin.token,
                headers: [("Idempotency-Key", "eur-1")])
            #expect(reused.errorCode == "idempotency_key_reused")
            let unknown = try await server.client.post(
                path, OperatorFundRequest(pin: admin.pin, amount: 5_000, currency: "GBP"), token: admin.token,
                headers: [("Idempotency-Key", "gbp-1")])
            #expect(unknown.errorCode == "unsupported_currency")
            let wallet = try await server.wallet(user)
            #expect(wallet.balance == 0 && wallet.wallet("EUR")?.balance == 5_000)
            let detail = try await OperatorConsoleTests.detail(server, admin, user.userId)
            #expect(detail.wallets.map(\.balance) == [0, 5_000])
        }
    }

    @Test("--wallet-currency decides which wallets users hold")
    func configuredCurrencies() async throws {
        try await LiveServer.run(.sqlite, configure: { $0.walletCurrencies = ["EUR"] }) { server in
            let user = try await server.signup()
            let wallet = try await server.wallet(user)
            #expect(wallet.currency == "EUR" && wallet.wallets.map(\.currency) == ["EUR"])
            // No NGN wallet here, and none is made by funding.
            await #expect(throws: APIError.self) {
                _ = try await server.services.wallets.fund(
                    phone: user.phone, amount: 1, currency: "NGN", reference: nil)
            }
        }
    }
}
