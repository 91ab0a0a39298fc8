import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `countersign wallet add` against a `countersign serve` process with the payment simulator: the
/// exit status says added (0), not gone through (1) or still waiting (2), and the wallet agrees.
@Suite("countersign wallet add")
struct WalletAddCommandTests {
    @Test("by card, by iDEAL on the simulator's page; no card, a method not offered, an abandoned payment")
    func add() async throws {
        try await ServeProcess.with(.sqlite, extra: ["--return-origin", "https://app.countersign.invalid"]) {
            server, _ in
            let api = server.client
            let phone = TestPhones.next()
            let user = try await api.post(
                "/auth/signup", try await api.signupBody(phone: phone, name: "Ada", pin: "4827")
            ).decode(SessionResponse.self)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-wallet-add-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let run = { (arguments: [String]) in
                try await CommandLineTests.run(
                    arguments + ["--poll-seconds", "0"],
                    environment: [
                        "COUNTERSIGN_SERVER": api.baseURL, "COUNTERSIGN_PROFILE": root + "/ada", "DATABASE_URL": "",
                    ])
            }
            #expect(
                try await CommandLineTests.run(
                    ["login", "--phone", phone, "--pin", "4827", "--code-from-simulator"],
                    environment: [
                        "COUNTERSIGN_SERVER": api.baseURL, "COUNTERSIGN_PROFILE": root + "/ada", "DATABASE_URL": "",
                    ]
                ).status == 0)

            let noCard = try await run(["wallet", "add", "--amount", "50", "--currency", "EUR", "--method", "card"])
            #expect(noCard.status == 1 && noCard.output.contains("no saved card"), "\(noCard.output)")
            let saved = try await api.post(
                "/payment-methods/cards",
                AddCardRequest(
                    number: "4242424242424242", expMonth: 12, expYear: SimulatedPaymentProviderTests.expYear),
                token: user.sessionToken)
            try #require(saved.status == 201)
            let card = try await run(["wallet", "add", "--amount", "50", "--currency", "EUR", "--method", "card"])
            #expect(card.status == 0 && card.output.contains("Added €50.00"), "\(card.output)")

            let ideal = try await run([
                "wallet", "add", "--amount", "12.50", "--currency", "eur", "--method", "ideal", "--redirect",
                "authorize",
                "--return-url", "https://app.countersign.invalid/back",
            ])
            #expect(ideal.status == 0 && ideal.output.contains("EUR balance now €62.50"), "\(ideal.output)")

            let abandoned = try await run([
                "wallet", "add", "--amount", "5", "--currency", "EUR", "--method", "bancontact", "--redirect",
                "abandon",
                "--return-url", "https://app.countersign.invalid/back",
            ])
            #expect(abandoned.status == 2, "\(abandoned.output)")
            let notOffered = try await run(["wallet", "add", "--amount", "5", "--currency", "NGN", "--method", "ideal"])
            #expect(notOffered.status == 1, "\(notOffered.output)")

            let wallet = try await api.get("/user/wallet", token: user.sessionToken).decode(WalletResponse.self)
            #expect(wallet.balance == 0 && wallet.wallet("EUR")?.balance == 6_250)
        }
    }
}
