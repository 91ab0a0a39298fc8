import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The ledger audit (`countersign audit`): clean after real flows, and each check catches the one
/// breach it is for. Every breach is written and audited inside one transaction that is then rolled
/// back, so one set of flows serves them all.
@Suite("Ledger audit")
struct AuditTests {
    /// A deliberate breach: the statements that make it, and the checks that must catch it (one,
    /// unless two invariants cover the same rows).
    struct Breach: Sendable, CustomStringConvertible {
        let description: String
        let checks: [String]
        let statements: [String]
        /// Whether the statements need `CHECK (may_go_negative = 1 OR balance >= 0)` off.
        var withoutBalanceConstraint = false

        init(description: String, check: String, statements: [String], withoutBalanceConstraint: Bool = false) {
            self.init(
                description: description, checks: [check], statements: statements,
                withoutBalanceConstraint: withoutBalanceConstraint)
        }

        init(description: String, checks: [String], statements: [String], withoutBalanceConstraint: Bool = false) {
            (self.description, self.checks, self.statements) = (description, checks, statements)
            self.withoutBalanceConstraint = withoutBalanceConstraint
        }
    }

    /// Rolls a breach's transaction back once its audit is done, carrying the audit's report out.
    struct RolledBack: Error {
        let report: LedgerAuditReport
    }

    /// Deletes entry `id` (a subquery) with its postings, moving user balances back so they still match.
    static func deleteEntry(_ id: String) -> [String] {
        [
            """
            UPDATE accounts SET balance = balance - COALESCE((SELECT SUM(p.amount) FROM postings p
                WHERE p.ledger_transaction_id = (\(id)) AND p.account_id = accounts.id), 0) WHERE user_id IS NOT NULL
            """,
            "DELETE FROM postings WHERE ledger_transaction_id = (\(id))",
            "DELETE FROM ledger_transactions WHERE id = (\(id))",
        ]
    }

    /// Writes a second copy of entry `id` (a subquery), moving user balances so they still match.
    static func duplicateEntry(_ id: String) -> [String] {
        [
            """
            UPDATE accounts SET balance = balance + COALESCE((SELECT SUM(p.amount) FROM postings p
                WHERE p.ledger_transaction_id = (\(id)) AND p.account_id = accounts.id), 0) WHERE user_id IS NOT NULL
            """,
            """
            INSERT INTO ledger_transactions (id, kind, reference, created_at)
            SELECT 'ltx_copy', kind, reference, created_at FROM ledger_transactions WHERE id = (\(id))
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_copy_' || id, 'ltx_copy', account_id, amount, created_at FROM postings
            WHERE ledger_transaction_id = (\(id))
            """,
        ]
    }

    /// Changes the first row (by id) of `table` that matches `condition`.
    static func updateFirst(_ table: String, set assignments: String, where condition: String) -> [String] {
        ["UPDATE \(table) SET \(assignments) WHERE id = (SELECT MIN(id) FROM \(table) WHERE \(condition))"]
    }

    /// `change` to the first day the spending limits keep a sum for.
    static func firstDay(_ change: String) -> [String] {
        ["\(change) WHERE day = (SELECT MIN(day) FROM spending_days)"]
    }

    /// A balanced entry between two system accounts (no cached balance moves).
    static func systemEntry(kind: String, reference: String, createdAt: String = "0") -> [String] {
        [
            "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('ltx_odd', '\(kind)', '\(reference)', \(createdAt))",
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            VALUES ('pst_odd_1', 'ltx_odd', 'sys:funding:NGN', -500, 0), ('pst_odd_2', 'ltx_odd', 'sys:supplier_clearing:NGN', 500, 0)
            """,
        ]
    }

    /// The first entry of `kind` (never a copy `duplicateEntry` made).
    static func entryOf(_ kind: String) -> String {
        "SELECT MIN(id) FROM ledger_transactions WHERE kind = '\(kind)' AND id <> 'ltx_copy'"
    }

    static let completedTopUpDebit = """
        SELECT MIN(l.id) FROM ledger_transactions l JOIN wallet_transactions w ON w.id = l.reference
        WHERE l.kind = 'topup' AND w.status = 'completed'
        """
    static let aWallet = "SELECT MIN(id) FROM accounts WHERE kind = 'wallet' AND balance > 0"

    static let breaches: [Breach] = [
        Breach(
            description: "a posting changed", check: "entries_balanced",
            statements: updateFirst("postings", set: "amount = amount - 1", where: "account_id LIKE 'sys:funding:%'")),
        Breach(
            description: "a drifted cached balance", check: "balances_match_postings",
            statements: ["UPDATE accounts SET balance = balance + 1 WHERE id = (\(aWallet))"]),
        Breach(
            description: "a user account allowed below zero", check: "no_negative_balances",
            statements: ["UPDATE accounts SET may_go_negative = 1 WHERE id = (\(aWallet))"]),
        Breach(
            description: "a negative balance that matches its postings", check: "no_negative_balances",
            statements: [
                // Two more legs on an order's payment entry take a wallet to -5; the entry still balances.
                """
                INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
                SELECT 'pst_neg_1', (\(entryOf("order_payment"))), id, -(balance + 5), 0 FROM accounts WHERE id = (\(aWallet))
                UNION ALL
                SELECT 'pst_neg_2', (\(entryOf("order_payment"))), 'sys:funding:NGN', balance + 5, 0 FROM accounts WHERE id = (\(aWallet))
                """,
                "UPDATE accounts SET balance = -5 WHERE id = (SELECT account_id FROM postings WHERE id = 'pst_neg_1')",
            ], withoutBalanceConstraint: true),
        Breach(
            // The empty entry is a top-up's cashback, so the top-up's cashback is not credited either.
            description: "an entry left without postings", checks: ["entries_balanced", "top_ups_have_entries"],
            statements: Array(deleteEntry(entryOf("cashback")).dropLast())),
        Breach(
            description: "a completed top-up without its debit", check: "top_ups_have_entries",
            statements: deleteEntry(completedTopUpDebit)),
        Breach(
            description: "a top-up's cashback booked twice", check: "top_ups_have_entries",
            statements: duplicateEntry(entryOf("cashback"))),
        Breach(
            description: "a failed top-up without its reversal", check: "top_ups_have_entries",
            statements: deleteEntry(entryOf("topup_reversal"))),
        Breach(
            description: "a top-up that says more than its debit took", check: "top_ups_have_entries",
            statements: updateFirst(
                "wallet_transactions", set: "amount = amount + 1", where: "type = 'topup' AND status = 'completed'")),
        Breach(
            description: "a completed top-up's cashback that differs from its entry", check: "top_ups_have_entries",
            statements: updateFirst(
                "wallet_transactions", set: "cashback_earned = cashback_earned + 1",
                where: "type = 'topup' AND status = 'completed'")),
        Breach(
            description: "a funding booked twice", check: "fundings_have_entries",
            statements: duplicateEntry(entryOf("funding"))),
        Breach(
            description: "a successful transfer without its entry",
            checks: ["transfers_have_entries", "transfers_have_wallet_lines"],
            statements: deleteEntry(entryOf("transfer"))),
        Breach(
            description: "a transfer booked twice", checks: ["transfers_have_entries", "transfers_have_wallet_lines"],
            statements: duplicateEntry(entryOf("transfer"))),
        Breach(
            description: "a transfer whose entry took other than its amount and fees", check: "transfers_have_entries",
            statements: updateFirst(
                "transfers", set: "total_fees = COALESCE(total_fees, 0) + 1", where: "status = 'SUCCESS'")),
        Breach(
            description: "a funding line that says more than its entry credited", check: "fundings_have_entries",
            statements: updateFirst("wallet_transactions", set: "amount = amount + 1", where: "type = 'funding'")),
        Breach(
            description: "a successful transfer without the payee's line", check: "transfers_have_wallet_lines",
            statements: [
                "DELETE FROM wallet_transactions WHERE id = (SELECT MIN(id) FROM wallet_transactions WHERE type = 'transfer_in')"
            ]),
        Breach(
            description: "a payer's transfer line that differs from what left the wallet",
            check: "transfers_have_wallet_lines",
            statements: updateFirst("wallet_transactions", set: "amount = amount - 1", where: "type = 'transfer_out'")),
        Breach(
            description: "a transfer line for a transfer that never happened", check: "transfers_have_wallet_lines",
            statements: [
                """
                INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, external_reference, created_at, updated_at)
                SELECT 'tx_phantom', MIN(id), 'transfer_in', 'completed', 500, 'NGN', 'tr_nowhere', 0, 0 FROM users
                """
            ]),
        Breach(
            description: "an order payment booked twice", check: "order_payments_have_entries",
            statements: duplicateEntry(entryOf("order_payment"))),
        Breach(
            description: "an order whose payment held other than its price and shipping",
            check: "order_payments_have_entries",
            statements: updateFirst(
                "orders", set: "shipping = shipping + 1, total = total + 1", where: "status = 'COMPLETED'")),
        Breach(
            description: "a wallet-paid order without its buyer's history line", check: "wallet_orders_have_lines",
            statements: [
                "DELETE FROM wallet_transactions WHERE id = (SELECT MIN(id) FROM wallet_transactions WHERE type = 'order_payment')"
            ]),
        Breach(
            description: "a wallet refund line that says more than went back", check: "wallet_orders_have_lines",
            statements: updateFirst("wallet_transactions", set: "amount = amount + 1", where: "type = 'order_refund'")),
        Breach(
            description: "an order payment line for an order paid by card", check: "wallet_orders_have_lines",
            statements: [
                """
                INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, external_reference, created_at, updated_at)
                SELECT 'tx_phantom_order', buyer_id, 'order_payment', 'completed', total, currency, id, 0, 0 FROM orders
                WHERE id = (SELECT MIN(id) FROM orders WHERE payment_method = 'card' AND status = 'COMPLETED')
                """
            ]),
        Breach(
            description: "a completed order without its release", check: "order_payments_have_entries",
            statements: deleteEntry(entryOf("order_release"))),
        Breach(
            description: "a transfer entry for no transfer", check: "entries_have_owners",
            statements: systemEntry(kind: "transfer", reference: "tr_nowhere")),
        Breach(
            description: "an entry of a kind nothing writes", check: "entries_have_owners",
            statements: systemEntry(kind: "adjustment", reference: "tx_nowhere")),
        Breach(
            description: "a top-up left pending past the sweeper's horizon", check: "no_stale_pending_top_ups",
            statements: pendingTopUp(createdAt: "0")),
        Breach(
            description: "an idempotency key linked to no transaction", check: "idempotency_transactions",
            statements: [
                """
                UPDATE idempotency_keys SET transaction_id = 'tx_nowhere'
                WHERE claim_id = (SELECT MIN(claim_id) FROM idempotency_keys WHERE transaction_id IS NOT NULL)
                """
            ]),
        Breach(
            description: "a done top-up key that names no transaction", check: "idempotency_transactions",
            statements: [
                """
                UPDATE idempotency_keys SET transaction_id = NULL
                WHERE claim_id = (SELECT MIN(claim_id) FROM idempotency_keys WHERE transaction_id IS NOT NULL)
                """
            ]),
        Breach(
            description: "a transfer key naming no transfer", check: "idempotency_resources",
            statements: [
                """
                UPDATE idempotency_keys SET resource_id = 'tr_nowhere'
                WHERE claim_id = (SELECT MIN(claim_id) FROM idempotency_keys WHERE resource_id IS NOT NULL)
                """
            ]),
        Breach(
            description: "a day's paid-out sum that is not its payments'", check: "spending_days_match",
            statements: firstDay("UPDATE spending_days SET amount = amount + 1")),
        Breach(
            description: "payments whose day was never counted", check: "spending_days_match",
            statements: firstDay("DELETE FROM spending_days")),
    ]

    /// A pending top-up of 500 made at `createdAt` (SQL) by the owner of a wallet holding that much,
    /// with its debit from that wallet.
    static func pendingTopUp(createdAt: String) -> [String] {
        let wallet = "SELECT MIN(id) FROM accounts WHERE kind = 'wallet' AND balance >= 500"
        return [
            """
            INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, created_at, updated_at)
            SELECT 'tx_pending', user_id, 'topup', 'pending', 500, 'NGN', \(createdAt), \(createdAt) FROM accounts
            WHERE id = (\(wallet))
            """,
            "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('ltx_pending', 'topup', 'tx_pending', \(createdAt))",
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pending_1', 'ltx_pending', id, -500, 0 FROM accounts WHERE id = (\(wallet))
            UNION ALL SELECT 'pst_pending_2', 'ltx_pending', 'sys:supplier_clearing:NGN', 500, 0
            """,
            "UPDATE accounts SET balance = balance - 500 WHERE id = (SELECT account_id FROM postings WHERE id = 'pst_pending_1')",
        ]
    }

    /// Every kind of entry and idempotency key the audit checks, made through the API.
    static func realFlows(_ server: LiveServer) async throws {
        let payer = try await server.fundedUser(balance: 100_000)
        let delivered = try await server.topUp(payer, amount: 5_000, pin: payer.pin, idempotencyKey: "audit-1")
        try #require(delivered.status == 200, "\(delivered.text)")
        try #require(try delivered.decode(TopUpResponse.self).data.cashbackEarned ?? 0 > 0)
        // The simulated supplier refuses numbers ending in 0000: the debit is reversed.
        let refused = try await server.topUp(payer, recipient: "08012340000", pin: payer.pin, idempotencyKey: "audit-2")
        try #require(try refused.decode(TopUpResponse.self).data.status == "failed", "\(refused.text)")

        let payee = try await server.signup(name: "Bola")
        let quoted = try await server.quotedTransfer(payer, to: payee.phone)
        let authorized = try await server.authorizeTransfer(payer, quoted)
        try #require(authorized.status == 200, "\(authorized.text)")
        let done = try await server.awaitTransfer(payer, id: quoted.id) { $0.status == .success }
        try #require(done.status == .success)

        let (seller, buyer, order) = try await RefundTests.paidOrder(server)
        try #require(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
        try #require(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)

        // An order paid from the wallet, part refunded back into it.
        let (walletSeller, walletBuyer, walletOrder) = try await WalletOrderPaymentTests.walletOrder(server)
        let paid = try await WalletOrderPaymentTests.pay(server, walletBuyer, walletOrder.id, pin: walletBuyer.pin)
        try #require(paid.status == 200, "\(paid.text)")
        let refunded = try await RefundTests.refund(server, walletOrder.id, 1_000, token: walletSeller.token)
        try #require(refunded.status == 201, "\(refunded.text)")
    }

    @Test("clean after real flows; each breach fails exactly its check", arguments: TestEngines.all)
    func breaches(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            try await Self.realFlows(server)
            let now = server.services.clock.nowMillis()
            let clean = try await CountersignServer.LedgerAudit().run(on: server.database, now: now)
            #expect(clean.passed, "\(clean.failures)")
            #expect(clean.results.map(\.name) == LedgerAuditCheck.all.map(\.name))
            // Every kind of entry the checks look for is there, so a passing check has rows to pass on.
            for kind in [
                "funding", "topup", "cashback", "topup_reversal", "transfer", "order_payment", "order_release",
            ] {
                #expect(try await LedgerAudit.count("ledger_transactions WHERE kind = '\(kind)'", server.database) >= 1)
            }

            for breach in Self.breaches {
                let report = try await Self.audit(
                    breach.statements, on: server.database, now: now,
                    withoutBalanceConstraint: breach.withoutBalanceConstraint)
                #expect(
                    report.failures.map(\.name) == breach.checks,
                    "\(breach): \(report.failures.map { "\($0.name) \($0.offending) \($0.samples)" })")
                #expect(report.failures.allSatisfy { !$0.samples.isEmpty && $0.offending >= 1 })
            }
            // The horizon is the sweeper's: just inside it, a pending top-up is no breach yet.
            let young = try await Self.audit(
                Self.pendingTopUp(createdAt: "\(now - PendingTopUpSweeper.settledWithinMillis + 1_000)"),
                on: server.database, now: now)
            #expect(young.passed, "\(young.failures)")
            try await LedgerAudit.check(server.database, now: now)

            // Several connections at once: the same report as one at a time, clean and broken
            // (a breach committed, then undone), with the results in the checks' order.
            for connections in [2, 3, LedgerAuditCheck.all.count + 5] {
                #expect(
                    try await CountersignServer.LedgerAudit().run(
                        on: server.database, now: now, connections: connections)
                        == clean)
            }
            let account = try await server.database.read { sql in
                try await sql.first(
                    "SELECT id FROM accounts WHERE user_id IS NOT NULL AND kind = 'wallet' ORDER BY id LIMIT 1", [])
            }
            let accountId = try #require(account).string("id")
            try await server.database.transaction { sql in
                try await sql.execute("UPDATE accounts SET balance = balance + 7 WHERE id = $1", [.text(accountId)])
            }
            let broken = try await CountersignServer.LedgerAudit().run(on: server.database, now: now)
            #expect(broken.failures.map(\.name) == ["balances_match_postings"])
            #expect(
                try await CountersignServer.LedgerAudit().run(on: server.database, now: now, connections: 4) == broken)
            try await server.database.transaction { sql in
                try await sql.execute("UPDATE accounts SET balance = balance - 7 WHERE id = $1", [.text(accountId)])
            }
        }
    }

    /// Applies `statements`, audits what they left, and rolls them back.
    static func audit(
        _ statements: [String], on database: any Database, now: Int64, withoutBalanceConstraint: Bool = false
    ) async throws -> LedgerAuditReport {
        // PostgreSQL drops the constraint inside the transaction (the rollback restores it); SQLite
        // ignores CHECK constraints per connection, so it turns them back on before the rollback.
        let (off, on): ([String], [String]) =
            switch (withoutBalanceConstraint, database.engine) {
            case (false, _): ([], [])
            case (true, .postgres): (["ALTER TABLE accounts DROP CONSTRAINT accounts_check"], [])
            case (true, .sqlite): (["PRAGMA ignore_check_constraints = ON"], ["PRAGMA ignore_check_constraints = OFF"])
            }
        do {
            try await database.transaction { sql -> Void in
                // What a commit would do first on PostgreSQL: run the deferred triggers (the spending
                // limits' days), so that the audit reads what a committed breach would leave.
                let commit = database.engine == .postgres ? ["SET CONSTRAINTS ALL IMMEDIATE"] : []
                for statement in off + statements + commit { try await sql.execute(statement) }
                let report = try await CountersignServer.LedgerAudit().run(on: sql, now: now)
                for statement in on { try await sql.execute(statement) }
                throw RolledBack(report: report)
            }
        } catch let rolledBack as RolledBack {
            return rolledBack.report
        }
        throw TestFailure("the breach's transaction committed")
    }

    @Test("countersign audit: exit 0 on a clean store, 1 naming the check on a broken one", arguments: TestEngines.all)
    func commandLine(engine: DatabaseEngine) async throws {
        if engine == .postgres {
            try await TestDatabase.withFreshPostgres { url in try await Self.commandLine(databaseURL: url) }
        } else {
            try await Self.commandLine(databaseURL: nil)
        }
    }

    /// The JSON report in a command's output, which also carries its log lines and notes (standard
    /// error; PostgresNIO warns on a busy machine when a lease comes before its pool is running): the
    /// lines from the report's opening `{` line to its closing `}` line, as the command writes it.
    static func reportJSON(_ output: String) -> Data {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "{"), let end = lines.lastIndex(of: "}"), start < end else {
            return Data()
        }
        return Data(lines[start...end].joined(separator: "\n").utf8)
    }

    /// The report in `output`, or a failure that shows the output.
    static func report(in output: String) throws -> LedgerAuditReport {
        do {
            return try JSONDecoder().decode(LedgerAuditReport.self, from: reportJSON(output))
        } catch {
            throw TestFailure("no JSON report in the command's output (\(error)):\n\(output)")
        }
    }

    static func commandLine(databaseURL: String?) async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-audit-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let store = ["--data-dir", dataDirectory] + (databaseURL.map { ["--database-url", $0] } ?? [])
        let environment = ["DATABASE_URL": "", "COUNTERSIGN_DATA_DIR": ""]
        // Only serve and migrate create a store; audit checks one that exists.
        let migrated = try await CommandLineTests.run(["migrate"] + store, environment: environment)
        try #require(migrated.status == 0, "\(migrated.output)")
        let clean = try await CommandLineTests.run(["audit"] + store, environment: environment)
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("all \(LedgerAuditCheck.all.count) checks passed"), "\(clean.output)")

        // An entry whose postings do not balance, written behind the server's back.
        try await withStore(dataDirectory: dataDirectory, databaseURL: databaseURL) { database in
            try await database.transaction { sql in
                for statement in systemEntry(kind: "funding", reference: "fund_nowhere") {
                    try await sql.execute(statement)
                }
                try await sql.execute("UPDATE postings SET amount = 499 WHERE id = 'pst_odd_2'")
            }
        }
        let broken = try await CommandLineTests.run(["audit"] + store, environment: environment)
        #expect(broken.status == 1, "\(broken.output)")
        let line = broken.output.split(separator: "\n").first { $0.hasPrefix("entries_balanced ") }
        #expect(line?.hasSuffix("FAIL  1 (ltx_odd)") == true, "\(broken.output)")
        let json = try await CommandLineTests.run(["audit", "--json"] + store, environment: environment)
        #expect(json.status == 1)
        let report = try Self.report(in: json.output)
        #expect(report.failures.map(\.name) == ["entries_balanced", "entries_have_owners"])
        // The default runs checks on several connections at once; one at a time finds the same.
        let oneAtATime = try await CommandLineTests.run(
            ["audit", "--json", "--jobs", "1"] + store, environment: environment)
        #expect(oneAtATime.status == 1)
        let sequential = try Self.report(in: oneAtATime.output)
        #expect(sequential == report)
        for jobs in ["0", "9"] {
            let refused = try await CommandLineTests.run(["audit", "--jobs", jobs] + store, environment: environment)
            #expect(
                refused.status == 64 && refused.output.contains("--jobs must be 1 to 8"),
                "--jobs \(jobs): \(refused.status) \(refused.output)")
        }

        let unopenable = try await CommandLineTests.run(
            ["audit", "--data-dir", "/dev/null/countersign"], environment: environment)
        #expect(unopenable.status == 2, "\(unopenable.output)")
    }

    /// The store `countersign` opens for these flags, opened in this process.
    static func withStore(
        dataDirectory: String, databaseURL: String?, _ body: @Sendable (any Database) async throws -> Void
    ) async throws {
        if let databaseURL {
            let database = try PostgresDatabase(url: databaseURL, maxConnections: 2, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try? await database.run() }
                defer { group.cancelAll() }
                try await body(database)
            }
        } else {
            let database = try await SQLiteDatabase.open(
                path: (dataDirectory as NSString).appendingPathComponent("countersign.sqlite"),
                logger: TestDatabase.logger)
            do {
                try await body(database)
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
        }
    }
}
