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

    @Test(
        "with endpoints live the event and a delivery to each subscribed one are written with the status; more than four leave it to the transaction",
        arguments: engines)
    func settleWithEvent(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let now = RepositoryContractTests.now
            let (wallet, _) = try await RepositoryContractTests.makeUser("st2", on: database)
            func endpoint(_ id: String, _ types: String, enabled: Int = 1, removed: Bool = false) async throws {
                try await database.transaction { sql in
                    try await sql.execute(
                        """
                        INSERT INTO webhook_endpoints (id, url, secret, event_types, enabled, removed_at, created_at)
                        VALUES ($1, 'https://hooks.example/in', 'whsec_x', $2, $3, $4, $5)
                        """,
                        [
                            .text(id), .text(types), .integer(Int64(enabled)), removed ? .integer(now) : .null,
                            .integer(now),
                        ])
                }
            }
            try await endpoint("we-c", "transfer.completed,topup.failed")
            try await endpoint("we-d", "topup.completed", enabled: 0)
            try await endpoint("we-e", "topup.completed", removed: true)
            try await endpoint("we-f", "topup.completed.x,xtopup.completed")
            let pending = ["t3", "t4", "t5"].map { id in
                WalletTransaction(
                    id: id, userId: "st2", type: .topup, status: .pending, amount: 1_000, currency: "NGN",
                    productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn",
                    authorizedBy: "biometric", cashbackUsed: 0, cashbackEarned: 0, externalReference: nil,
                    idempotencyKey: nil, failureCode: nil, createdAt: now, updatedAt: now)
            }
            try await database.transaction { sql in
                for transaction in pending {
                    let row = WalletTransactionRepository.row(transaction)
                    try await sql.execute(row.insert(firstBind: 1), row.values)
                }
            }
            func settle(_ transaction: WalletTransaction) async throws -> (Int64?, WebhookOutbox.Event) {
                var finished = transaction
                try finished.status.move(to: .completed)
                finished.externalReference = "ref-\(transaction.id)"
                finished.updatedAt = now + 1
                let event = try #require(try WebhookOutbox().walletTransactionEvent(finished))
                let balance = try await database.single { sql in
                    try await sql.walletTransactions.settleDelivered(
                        id: transaction.id, cashbackEarned: 0, externalReference: "ref-\(transaction.id)", now: now + 1,
                        balanceOf: wallet, cashback: nil, answer: nil, event: event)
                }
                return (balance, event)
            }

            // None subscribed: settled, and no event recorded.
            #expect(try await settle(pending[2]).0 == 0)
            #expect(try await database.read { try await $0.walletTransactions.find(id: "t5") }?.status == .completed)
            let none = try await database.read { sql in
                try await sql.first("SELECT count(*) AS n FROM webhook_events", [])?.int("n")
            }
            #expect(none == 0)

            try await endpoint("we-a", "topup.completed")
            try await endpoint("we-b", "transfer.completed,*")
            let (balance, event) = try await settle(pending[0])
            #expect(balance == 0)
            let (subscribed, events, deliveries) = try await database.read { sql in
                (
                    try await sql.webhookEndpoints.subscribed(to: "topup.completed"),
                    try await sql.query("SELECT * FROM webhook_events", []),
                    try await sql.query("SELECT * FROM webhook_deliveries ORDER BY endpoint_id", [])
                )
            }
            #expect(subscribed == ["we-a", "we-b"], "the outbox's own reading of the endpoints")
            #expect(events.count == 1)
            #expect(try events.first?.string("id") == event.id && events.first?.string("payload") == event.payload)
            #expect(try events.first?.string("type") == "topup.completed" && events.first?.int("resource_seq") == 1)
            #expect(try deliveries.map { try $0.string("endpoint_id") } == subscribed)
            let ids = try deliveries.map { try $0.string("id") }
            #expect(Set(ids).count == 2 && ids.allSatisfy { $0.hasPrefix("whd_") })
            for delivery in deliveries {
                #expect(try delivery.string("event_id") == event.id && delivery.string("status") == "pending")
                #expect(
                    try delivery.string("resource_key") == "wallet_transaction:t3" && delivery.int("resource_seq") == 1)
                #expect(try delivery.int("next_attempt_at") == now + 1)
            }
            #expect(try await database.read { try await $0.walletTransactions.find(id: "t3") }?.status == .completed)

            // Five subscribed: more than the statement makes deliveries for, so it writes nothing.
            for id in ["we-g", "we-h", "we-i"] { try await endpoint(id, "*") }
            let counts = try await LedgerAudit.snapshot(database)
            #expect(try await settle(pending[1]).0 == nil)
            #expect(try await LedgerAudit.snapshot(database) == counts)
            #expect(try await database.read { try await $0.walletTransactions.find(id: "t4") }?.status == .pending)
            let recorded = try await database.read { sql in
                try await sql.first(
                    "SELECT (SELECT count(*) FROM webhook_events) AS events, (SELECT count(*) FROM webhook_deliveries) AS deliveries",
                    [])
            }
            #expect(try recorded?.int("events") == 1 && recorded?.int("deliveries") == 2)
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
