import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Operators: who is one (`countersign operator grant|revoke`), the log of what operators did, and
/// the log of ledger audits the console will show.
@Suite("Operators")
struct OperatorTests {
    @Test(
        "grant and revoke flag the user and each leaves an action in the log, newest first; an unknown or malformed phone changes nothing",
        arguments: TestEngines.all)
    func grantAndRevoke(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let operators = server.services.operators
            #expect(try await operators.setOperator(phone: user.phone, true) == user.userId)
            #expect(try await server.database.read { try await $0.operators.isOperator(userId: user.userId) })
            server.clock.advance(seconds: 1)
            #expect(try await operators.setOperator(phone: user.phone, false) == user.userId)
            #expect(try await !server.database.read { try await $0.operators.isOperator(userId: user.userId) })

            await #expect(throws: APIError.self) { try await operators.setOperator(phone: "08099999999", true) }
            await #expect(throws: APIError.self) { try await operators.setOperator(phone: "not a phone", true) }
            let actions = try await operators.actions()
            #expect(actions.map(\.action) == ["revoke_operator", "grant_operator"])
            #expect(actions.allSatisfy { $0.targetUserId == user.userId && $0.via == "cli" && $0.operatorId == nil })
            #expect(actions.allSatisfy { !$0.detail.contains(user.phone) && !$0.detail.contains(user.pin) })
        }
    }

    @Test(
        "each audit is recorded: the last one shows whether it passed and which checks failed",
        arguments: TestEngines.all)
    func auditRuns(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let operators = server.services.operators
            #expect(try await operators.lastAudit() == nil)
            _ = try await server.fundedUser(balance: 10_000)
            let (report, run) = try await operators.audit(via: "console")
            #expect(report.passed && run.passed && run.failedChecks.isEmpty && run.via == "console")
            #expect(try await operators.lastAudit() == run)
            let stored = try JSONDecoder().decode(LedgerAuditReport.self, from: Data(run.report.utf8))
            #expect(stored == report)
            // A breach, then an audit that records it, then the books put right again.
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE accounts SET balance = balance + 1 WHERE id = (SELECT MIN(id) FROM accounts WHERE kind = 'wallet' AND balance > 0)"
                )
            }
            server.clock.advance(seconds: 1)
            let (broken, brokenRun) = try await operators.audit(via: "cli")
            #expect(!broken.passed && brokenRun.failedChecks == ["balances_match_postings"])
            #expect(try await operators.lastAudit() == brokenRun)
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE accounts SET balance = balance - 1 WHERE id = (SELECT MIN(id) FROM accounts WHERE kind = 'wallet' AND balance > 0)"
                )
            }
        }
    }

    @Test(
        "countersign operator grant|revoke and audit from the command line, recorded as such",
        arguments: TestEngines.all)
    func commandLine(engine: DatabaseEngine) async throws {
        let run: @Sendable (String?) async throws -> Void = { url in
            let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-operator-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
            let store = ["--data-dir", dataDirectory] + (url.map { ["--database-url", $0] } ?? [])
            let environment = ["DATABASE_URL": ""]
            try await withHTTPClient { http in
                let server = try await ServeProcess(http: http, environment: environment) { port in
                    ["serve", "--port", String(port), "--log-level", "warning"] + store
                }
                let phone = "0806" + String(Int.random(in: 1_000_000..<9_999_999))
                let session = try await server.client.post(
                    "/auth/signup", try await server.client.signupBody(phone: phone, name: "Op", pin: "4827")
                ).decode(SessionResponse.self)
                let granted = try await CommandLineTests.run(
                    ["operator", "grant", "--phone", phone] + store, environment: environment)
                #expect(granted.status == 0 && granted.output.contains("is now an operator"), "\(granted.output)")
                let unknown = try await CommandLineTests.run(
                    ["operator", "grant", "--phone", "08099999999"] + store, environment: environment)
                #expect(unknown.status != 0 && unknown.output.contains("No user"), "\(unknown.output)")
                let revoked = try await CommandLineTests.run(
                    ["operator", "revoke", "--phone", phone] + store, environment: environment)
                #expect(revoked.status == 0, "\(revoked.output)")
                let audit = try await CommandLineTests.run(["audit"] + store, environment: environment)
                #expect(audit.status == 0, "\(audit.output)")
                #expect(await server.stop() == 0)

                var configuration = ServerConfiguration()
                configuration.dataDirectory = dataDirectory
                configuration.databaseURL = url
                try await OperatorSession.run(configuration: configuration, logger: TestDatabase.logger) { services in
                    let actions = try await services.operators.actions()
                    #expect(actions.map(\.action) == ["revoke_operator", "grant_operator"])
                    #expect(actions.allSatisfy { $0.targetUserId == session.userId })
                    let last = try await services.operators.lastAudit()
                    #expect(last?.passed == true && last?.via == "cli")
                }
            }
        }
        if engine == .postgres {
            try await TestDatabase.withFreshPostgres { try await run($0) }
        } else {
            try await run(nil)
        }
    }
}
