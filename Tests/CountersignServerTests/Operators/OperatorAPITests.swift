import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The operator console's API, so far its read side and the audit: operators only.
@Suite("Operator API")
struct OperatorAPITests {
    static let paths: [(String, String)] = [
        ("GET", "/operator/overview"), ("GET", "/operator/actions"), ("POST", "/operator/audit"),
    ]

    static func call(_ server: LiveServer, _ method: String, _ path: String, token: String?) async throws -> APIResponse
    {
        method == "GET"
            ? try await server.client.get(path, token: token) : try await server.client.post(path, token: token)
    }

    @Test(
        "no session is 401, a user who is not an operator 403 not_operator, and nothing is recorded",
        arguments: TestEngines.all)
    func operatorsOnly(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            for (method, path) in Self.paths {
                #expect(try await Self.call(server, method, path, token: nil).status == 401, "\(path)")
                let refused = try await Self.call(server, method, path, token: user.token)
                #expect(refused.status == 403 && refused.errorCode == "not_operator", "\(path): \(refused.text)")
            }
            #expect(try await LedgerAudit.count("audit_runs", server.database) == 0)
            #expect(try await LedgerAudit.count("operator_actions", server.database) == 0)
            // Revoked rights end at once.
            _ = try await server.services.operators.setOperator(phone: user.phone, true)
            #expect(try await Self.call(server, "GET", "/operator/overview", token: user.token).status == 200)
            _ = try await server.services.operators.setOperator(phone: user.phone, false)
            #expect(try await Self.call(server, "GET", "/operator/overview", token: user.token).status == 403)
        }
    }

    @Test(
        "an operator sees the headline numbers, runs the audit (recorded with who asked) and reads the action log newest first",
        arguments: TestEngines.all)
    func overviewAuditActions(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 25_000)
            // A second user locks their payments with five wrong PINs.
            let locked = try await server.fundedUser(balance: 1_000)
            for _ in 0..<5 { _ = try await server.topUp(locked, pin: "9999") }
            let admin = try await server.signup(name: "Operator")
            _ = try await server.services.operators.setOperator(phone: admin.phone, true)

            let before = try await server.client.get("/operator/overview", token: admin.token).decode(
                OperatorOverview.self)
            #expect(before.users == 3 && before.lockedAccounts == 1, "\(before)")
            #expect(before.walletFloat == 26_000 && before.currency == "NGN")
            #expect(before.requests > 0 && before.lockouts >= 1 && before.lastAudit == nil)
            _ = payer

            server.clock.advance(seconds: 1)
            let run = try await server.client.post("/operator/audit", token: admin.token).decode(OperatorAuditRun.self)
            #expect(run.passed && run.failedChecks.isEmpty && run.via == "console")
            let after = try await server.client.get("/operator/overview", token: admin.token).decode(
                OperatorOverview.self)
            #expect(after.lastAudit == run)

            let actions = try await server.client.get("/operator/actions", token: admin.token).decode(
                OperatorActionList.self
            ).actions
            #expect(actions.map(\.action) == ["run_audit", "grant_operator"], "\(actions)")
            #expect(actions.first?.operatorId == admin.userId && actions.first?.via == "console")
            #expect(actions.last?.operatorId == nil && actions.last?.targetUserId == admin.userId)
        }
    }
}
