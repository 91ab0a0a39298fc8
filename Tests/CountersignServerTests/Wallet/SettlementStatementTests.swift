import CountersignAPI
import CountersignCore
import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// On PostgreSQL a delivered top-up settles in one statement (`settleDelivered`) and falls back to
/// the settlement's transaction when that statement writes nothing. A fallback looks the same from
/// outside, so these check the statement itself, and the answer it fills in.
@Suite("One-statement settlement")
struct SettlementStatementTests {
    static var engines: [DatabaseEngine] { TestEngines.all.filter { $0 == .postgres } }

    @Test(
        "the status, the cashback entry and the answer are written together, and nothing when the top-up is settled already or an endpoint is live",
        arguments: engines)
    func settleDelivered(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let now = RepositoryContractTests.now
            let (wallet, cashbackAccount) = try await RepositoryContractTests.makeUser("st1", on: database)
            try await database.transaction { sql in
                try await sql.ledger.post(
                    .transfer(
                        kind: .funding, reference: "f1", amount: 5_000, from: SystemAccount.funding("NGN"), to: wallet),
                    now: now)
                for id in ["t1", "t2"] {
                    try await sql.execute(
                        """
                        INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, created_at, updated_at)
                        VALUES ($1, 'st1', 'topup', 'pending', 1000, 'NGN', $2, $2)
                        """, [.text(id), .integer(now)])
                }
                _ = try await sql.idempotency.claim(
                    userId: "st1", key: "k1", requestHash: "h", owner: "test", now: now, staleBefore: 0, linking: "t1")
            }
            let settle = { (id: String) in
                try await database.single { sql in
                    try await sql.walletTransactions.settleDelivered(
                        id: id, cashbackEarned: 10, externalReference: "ref-\(id)", now: now + 1, balanceOf: wallet,
                        cashback: try .transfer(
                            kind: .cashback, reference: id, amount: 10, from: SystemAccount.cashbackExpense("NGN"),
                            to: cashbackAccount),
                        answer: .init(userId: "st1", key: "k1", before: "{\"balance\":", after: "}"))
                }
            }

            #expect(try await settle("t1") == 5_000)
            let (status, answer, cashback) = try await database.read { sql in
                (
                    try await sql.walletTransactions.find(id: "t1"),
                    try await sql.first(
                        "SELECT state, response_body FROM idempotency_keys WHERE idempotency_key = 'k1'", []),
                    try await sql.ledger.balance(accountId: cashbackAccount)
                )
            }
            #expect(status?.status == .completed && status?.cashbackEarned == 10)
            #expect(status?.externalReference == "ref-t1")
            #expect(try answer?.string("state") == "done" && answer?.string("response_body") == "{\"balance\":5000}")
            #expect(cashback == 10)
            let counts = try await LedgerAudit.snapshot(database)

            // Settled already: nothing written, and the caller's transaction says why.
            #expect(try await settle("t1") == nil)
            #expect(try await LedgerAudit.snapshot(database) == counts)

            // An endpoint live: the outbox has an event to write, so the statement leaves it to the transaction.
            try await database.transaction { sql in
                try await sql.execute(
                    """
                    INSERT INTO webhook_endpoints (id, url, secret, event_types, created_at)
                    VALUES ('we1', 'https://hooks.example/in', 'whsec_x', '*', $1)
                    """, [.integer(now)])
            }
            #expect(try await settle("t2") == nil)
            #expect(try await database.read { try await $0.walletTransactions.find(id: "t2") }?.status == .pending)
            #expect(try await database.read { try await $0.ledger.balance(accountId: cashbackAccount) } == 10)
        }
    }

    @Test("the answer cut at its balance decodes, with any balance put back, as the answer with that balance")
    func answerAroundBalance() throws {
        var pending = WalletTransaction(
            id: "tx_1", userId: "u1", type: .topup, status: .pending, amount: 1_000, currency: "NGN",
            productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn", authorizedBy: "token",
            cashbackUsed: 0, cashbackEarned: 0, externalReference: nil, idempotencyKey: "k1", failureCode: nil,
            createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000)
        pending.cashbackEarned = 10
        let outcome = AirtimeOutcome.delivered(reference: "ref-1")
        let halves = try #require(try TopUpService.replayHalves(pending, outcome: outcome))
        for balance: Int64 in [0, 5_000, .max] {
            let joined = halves.before + String(balance) + halves.after
            let decoded = try JSONDecoder().decode(TopUpResponse.self, from: Data(joined.utf8))
            #expect(decoded == TopUpService.response(pending, balance: balance, outcome: outcome))
        }
    }
}
