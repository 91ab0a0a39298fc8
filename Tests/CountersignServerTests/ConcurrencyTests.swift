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
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        // At most five PIN checks per account are judged at once; the rest are
                        // 429 with Retry-After and retried, as a client would.
                        while true {
                            let response = try await server.topUp(user, amount: 1_000, pin: user.pin)
                            if response.status != 429 { return (response.status, response.errorCode) }
                            try await Task.sleep(for: .milliseconds(Int.random(in: 5...50)))
                        }
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
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
