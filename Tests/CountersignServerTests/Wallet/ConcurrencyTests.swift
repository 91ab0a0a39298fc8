import CountersignAPI
import CountersignServer
import CountersignStore
import Testing

/// The wallet never goes negative, also under concurrent requests.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("200 concurrent top-ups against a wallet funded for 50: exactly 50 succeed", arguments: TestEngines.all)
    func concurrentTopUps(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 50 * 1_000, reference: nil)
            let statuses = try await server.parallelPinTopUps(user, count: 200, amount: 1_000)
            #expect(statuses.filter { $0.0 == 200 }.count == 50)
            #expect(statuses.filter { $0.0 == 422 && $0.1 == "insufficient_funds" }.count == 150)
            #expect(try await server.wallet(user).balance == 0)
            let completed = try await server.database.read { sql in
                try await sql.first(
                    "SELECT COUNT(*) AS n FROM wallet_transactions WHERE type = 'topup' AND status = 'completed'")?.int(
                        "n")
            }
            #expect(completed == 50)
            try await LedgerAudit.check(server.database)
        }
    }
}
