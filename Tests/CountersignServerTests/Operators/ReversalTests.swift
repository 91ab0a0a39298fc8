import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// An operator's reversal of a transfer or a funding: a new entry undoing it exactly, linked both
/// ways, once, never taking a wallet below zero.
@Suite("Operator reversals")
struct ReversalTests {
    /// A successful transfer of 10,000 (fees 1,050) from a funded payer to a new payee.
    static func completedTransfer(_ server: LiveServer) async throws -> (
        payer: TestUser, payee: TestUser, transferId: String
    ) {
        let payer = try await server.fundedUser()
        let payee = try await server.signup(name: "Bola")
        let quoted = try await server.quotedTransfer(payer, to: payee.phone)
        #expect(try await server.authorizeTransfer(payer, quoted).status == 200)
        let done = try await server.awaitTransfer(payer, id: quoted.id) {
            $0.status == .success || $0.status == .failed
        }
        try #require(done.status == .success)
        return (payer, payee, quoted.id)
    }

    static func operatorUser(_ server: LiveServer) async throws -> TestUser {
        let admin = try await server.signup()
        _ = try await server.services.operators.setOperator(phone: admin.phone, true)
        return admin
    }

    static func reverse(_ server: LiveServer, _ path: String, token: String, pin: String = "4827") async throws
        -> APIResponse
    {
        try await server.client.post(
            path, OperatorReverseRequest(pin: pin, reason: "Sent to the wrong number"), token: token)
    }

    @Test(
        "a reversed transfer gives the payer the amount and fees back, once, shown to both in history",
        arguments: TestEngines.all)
    func reverseTransfer(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (payer, payee, transferId) = try await Self.completedTransfer(server)
            let admin = try await Self.operatorUser(server)
            let path = "/operator/transfers/\(transferId)/reverse"
            #expect(try await Self.reverse(server, path, token: payer.token).errorCode == "not_operator")
            #expect(try await Self.reverse(server, path, token: admin.token, pin: "1111").status == 401)
            let missing = try await Self.reverse(server, "/operator/transfers/tr_nothing/reverse", token: admin.token)
            #expect(missing.status == 404 && missing.errorCode == "transfer_not_found")

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                // Three: more would meet the PIN rate limit per operator (429) before the store.
                for _ in 0..<3 { group.addTask { try await Self.reverse(server, path, token: admin.token).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201, 409, 409], "\(statuses)")
            #expect(try await server.wallet(payer).balance == 100_000)
            #expect(try await server.wallet(payee).balance == 0)
            #expect(try await server.systemBalance("sys:transfer_fees:NGN") == 0)
            let payerLine = try await server.client.get("/user/transactions", token: payer.token).decode(
                TransactionPage.self
            ).transactions.first
            #expect(
                payerLine?.type == "reversal_in" && payerLine?.amount == 11_050 && payerLine?.reference == transferId)
            let payeeLine = try await server.client.get("/user/transactions", token: payee.token).decode(
                TransactionPage.self
            ).transactions.first
            #expect(payeeLine?.type == "reversal_out" && payeeLine?.amount == 10_000)
            #expect(payeeLine?.counterpartyName == "Ada", "the payee sees whom they gave it back to")
            let again = try await Self.reverse(server, path, token: admin.token)
            #expect(again.status == 409 && again.errorCode == "already_reversed")
            #expect(try await server.services.operators.actions().first?.action == "reverse_transfer")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "a reversal that would take the payee's wallet below zero is refused and says what it has",
        arguments: TestEngines.all)
    func insufficientFunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (_, payee, transferId) = try await Self.completedTransfer(server)
            // The payee spends part of it.
            #expect(try await server.topUp(payee, amount: 4_000, pin: payee.pin, idempotencyKey: "spend").status == 200)
            let admin = try await Self.operatorUser(server)
            let before = try await LedgerAudit.count("ledger_transactions", server.database)
            let refused = try await Self.reverse(
                server, "/operator/transfers/\(transferId)/reverse", token: admin.token)
            #expect(refused.status == 422 && refused.errorCode == "reversal_insufficient_funds", "\(refused.text)")
            #expect(try refused.decode(ErrorResponse.self).error.available == 6_000)
            #expect(try await LedgerAudit.count("ledger_transactions", server.database) == before, "nothing written")
            #expect(try await LedgerAudit.count("reversals", server.database) == 0)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("an operator's funding is reversed by its transaction id", arguments: TestEngines.all)
    func reverseFunding(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let admin = try await Self.operatorUser(server)
            let funded = try await server.client.post(
                "/operator/users/\(user.userId)/fund", OperatorFundRequest(pin: "4827", amount: 5_000),
                token: admin.token, headers: [("Idempotency-Key", "fund-1")]
            ).decode(OperatorFunding.self)
            let reversed = try await Self.reverse(
                server, "/operator/fundings/\(funded.transactionId)/reverse", token: admin.token)
            #expect(reversed.status == 201, "\(reversed.text)")
            #expect(try reversed.decode(OperatorReversal.self).amount == 5_000)
            #expect(try await server.wallet(user).balance == 0)
            let missing = try await Self.reverse(server, "/operator/fundings/fund_nothing/reverse", token: admin.token)
            #expect(missing.status == 404 && missing.errorCode == "funding_not_found")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("the audit catches a reversal booked twice, one without its record, and one of the wrong original")
    func auditCatchesBrokenReversals() async throws {
        try await LiveServer.run(.sqlite) { server in
            let (_, _, transferId) = try await Self.completedTransfer(server)
            let (_, _, other) = try await Self.completedTransfer(server)
            let admin = try await Self.operatorUser(server)
            #expect(
                try await Self.reverse(server, "/operator/transfers/\(transferId)/reverse", token: admin.token).status
                    == 201)
            let now = server.services.clock.nowMillis()
            // A second copy of the reversal's entry takes the payee's wallet below zero: the CHECK is off for it.
            let twice = try await AuditTests.audit(
                AuditTests.duplicateEntry(AuditTests.entryOf("transfer_reversal")), on: server.database, now: now,
                withoutBalanceConstraint: true)
            #expect(twice.failures.map(\.name).contains("reversals_undo_originals"), "\(twice.failures.map(\.name))")
            let breaches: [(String, [String])] = [
                ("entries_have_owners", ["DELETE FROM reversals"]),
                ("reversals_undo_originals", ["UPDATE reversals SET original_id = '\(other)'"]),
            ]
            for (check, statements) in breaches {
                let report = try await AuditTests.audit(statements, on: server.database, now: now)
                #expect(report.failures.map(\.name).contains(check), "\(check): \(report.failures.map(\.name))")
            }
            try await LedgerAudit.check(server.database, now: now)
        }
    }
}
