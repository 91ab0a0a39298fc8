import CountersignCore
import CountersignStore

/// Accounts and the double-entry postings that move money between them.
package struct LedgerRepository: Sendable {
    let sql: any SQLExecutor

    /// The id of a user's account.
    package static func accountId(userId: String, kind: AccountKind, currency: String) -> String {
        "acct:\(userId):\(kind.rawValue):\(currency)"
    }

    /// Creates one account of the user's (idempotent) and returns its id.
    package func openAccount(userId: String, kind: AccountKind, currency: String, now: Int64)
        async throws -> String
    {
        let id = Self.accountId(userId: userId, kind: kind, currency: currency)
        try await sql.execute(
            """
            INSERT INTO accounts (id, user_id, kind, currency, may_go_negative, created_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (id) DO NOTHING
            """,
            [
                .text(id), .text(userId), .text(kind.rawValue), .text(currency), .integer(kind == .receivable ? 1 : 0),
                .integer(now),
            ]
        )
        return id
    }

    /// Creates the user's wallet and cashback accounts (idempotent) and returns their ids.
    package func openAccounts(userId: String, currency: String, now: Int64) async throws -> (
        wallet: String, cashback: String
    ) {
        (
            try await openAccount(userId: userId, kind: .wallet, currency: currency, now: now),
            try await openAccount(userId: userId, kind: .cashback, currency: currency, now: now)
        )
    }

    /// Creates the system accounts for `currency` if missing.
    package func openSystemAccounts(currency: String, now: Int64) async throws {
        for id in SystemAccount.all(currency) {
            try await sql.execute(
                "INSERT INTO accounts (id, kind, currency, may_go_negative, created_at) VALUES ($1, $2, $3, 1, $4) ON CONFLICT (id) DO NOTHING",
                [.text(id), .text("system"), .text(currency), .integer(now)]
            )
        }
    }

    /// Applies a balanced entry: cached balances move, postings are written. Throws
    /// `LedgerError.insufficientFunds` (and the caller's transaction rolls back) if a user account
    /// would go below zero.
    ///
    /// With `row`, that row is inserted with the entry: in the same statement where PostgreSQL writes
    /// the entry as one, and only if the entry is written.
    ///
    /// With `read`, that read is made and judged before the entry's funds are: in the entry's statement
    /// where PostgreSQL writes it as one (it sees the store as a statement of its own just before would:
    /// neither the entry nor `row`), otherwise in a statement of its own first. A judgement that throws
    /// leaves the funds unjudged, and the caller's transaction rolls back: call it in a transaction.
    package func post(_ entry: LedgerEntry, now: Int64, with row: Row? = nil, reading read: Read? = nil)
        async throws
    {
        let transactionId = Identifier.make("ltx")
        let userPostings = entry.postings.filter { !$0.accountId.hasPrefix("sys:") }
        if sql.engine == .postgres, userPostings.count <= 1, !entry.postings.isEmpty {
            return try await postInOneStatement(
                entry, id: transactionId, userPosting: userPostings.first, row: row, read: read, now: now)
        }
        try await read?.make(on: sql)
        try await postInSteps(entry, id: transactionId, now: now)
        if let row { try await sql.execute(row.insert(firstBind: 1), row.values) }
    }

    /// A read to make with an entry (`post(_:now:with:reading:)`) and the judgement of its rows.
    package struct Read {
        /// The `SELECT`, its values appended to the binds given (numbered after those there); it
        /// returns at least one row.
        let query: (inout [SQLValue]) -> String
        /// Throws to refuse the entry.
        let judge: ([SQLRow]) throws -> Void

        /// Makes the read alone, and judges it.
        func make(on sql: any SQLExecutor) async throws {
            var binds: [SQLValue] = []
            let statement = query(&binds)
            try judge(try await sql.query(statement, binds))
        }
    }

    /// A row of another table written with an entry (`post(_:now:with:)`).
    package struct Row: Sendable {
        let table: String
        let columns: [String]
        let values: [SQLValue]

        package init(table: String, columns: [String], values: [SQLValue]) {
            self.table = table
            self.columns = columns
            self.values = values
        }

        /// `INSERT INTO table (columns) VALUES (…)`, its values bound from `firstBind` on.
        func insert(firstBind: Int) -> String {
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders(firstBind)))"
        }

        func placeholders(_ firstBind: Int) -> String {
            values.indices.map { "$\($0 + firstBind)" }.joined(separator: ", ")
        }
    }

    /// `post` in a statement for the entry, one per user account moved and one for the postings.
    private func postInSteps(_ entry: LedgerEntry, id transactionId: String, now: Int64) async throws {
        try await sql.execute(
            "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ($1, $2, $3, $4)",
            [.text(transactionId), .text(entry.kind.rawValue), .text(entry.reference), .integer(now)]
        )
        // One lock order for every transaction (user accounts by id, then system accounts), so
        // two transactions touching the same accounts on PostgreSQL cannot deadlock.
        let postings = entry.postings.sorted(by: { $0.accountId < $1.accountId })
        for posting in postings {
            if !posting.accountId.hasPrefix("sys:") {
                // The guard in WHERE makes the debit and the funds check one atomic step: under
                // concurrency no two debits can both see the same balance. CHECK (balance >= 0)
                // backs it up. Only a seller's receivable may go below zero.
                let updated = try await sql.query(
                    "UPDATE accounts SET balance = balance + $1 WHERE id = $2 AND (balance + $1 >= 0 OR may_go_negative = 1) RETURNING balance",
                    [.integer(posting.amount), .text(posting.accountId)]
                )
                guard !updated.isEmpty else { throw LedgerError.insufficientFunds(accountId: posting.accountId) }
            }
        }
        // Every posting in one statement: one round trip, whatever the entry's size.
        guard !postings.isEmpty else { return }
        var rows: [String] = []
        var binds: [SQLValue] = [.text(transactionId), .integer(now)]
        for posting in postings {
            let at = binds.count
            rows.append("($\(at + 1), $1, $\(at + 2), $\(at + 3), $2)")
            binds += [.text(Identifier.make("pst")), .text(posting.accountId), .integer(posting.amount)]
        }
        try await sql.execute(
            "INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at) VALUES "
                + rows.joined(separator: ", "), binds)
    }

    /// `post` as one PostgreSQL statement, for an entry that moves at most one user account (system
    /// accounts keep no cached balance): the guarded balance update, the entry and its postings, each
    /// of the last two written only if the update went through. One row lock at most, so no lock
    /// order to keep. A refused update throws, as `post` does, with nothing written.
    /// With `read`, its rows come back beside the counts (a row of them each) and are judged first.
    private func postInOneStatement(
        _ entry: LedgerEntry, id: String, userPosting: Posting?, row: Row?, read: Read?, now: Int64
    ) async throws {
        var binds: [SQLValue] = []
        let ctes = Self.entryStatements(entry, id: id, userPosting: userPosting, now: now, binds: &binds)
        var companion = ""
        if let row {
            companion = """
                ,
                companion AS (
                    INSERT INTO \(row.table) (\(row.columns.joined(separator: ", ")))
                    SELECT \(row.placeholders(binds.count + 1)) WHERE EXISTS (SELECT 1 FROM entry)
                    RETURNING 1
                )
                """
            binds += row.values
        }
        var select = "SELECT (SELECT count(*) FROM entry) AS entries, (SELECT count(*) FROM written) AS postings"
        if let read {
            // Every part sees the snapshot the statement started with: the read, what it would
            // have read alone just before.
            select =
                "SELECT counts.*, read.* FROM (\(select)) AS counts LEFT JOIN (\(read.query(&binds))) AS read ON TRUE"
        }
        let rows = try await sql.query("WITH \(ctes)\(companion)\n\(select)", binds)
        try read?.judge(rows)
        guard try rows.first?.int("entries") == 1 else {
            throw LedgerError.insufficientFunds(accountId: userPosting?.accountId ?? "")
        }
    }

    /// The common table expressions that write `entry` in one PostgreSQL statement, for an entry
    /// that moves at most one user account (`userPosting`): `moved` (its guarded balance update),
    /// `entry` (returning the entry's id, only if the update went through) and `written` (the
    /// postings). Their values are appended to `binds`. With `after`, the name of an earlier common
    /// table expression, nothing is written unless it returned a row.
    static func entryStatements(
        _ entry: LedgerEntry, id: String, userPosting: Posting?, now: Int64, binds: inout [SQLValue],
        after precondition: String? = nil
    ) -> String {
        func bind(_ value: SQLValue) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        let (id, now, kind, reference) = (
            bind(.text(id)), bind(.integer(now)), bind(.text(entry.kind.rawValue)), bind(.text(entry.reference))
        )
        let preconditionHolds = precondition.map { " AND EXISTS (SELECT 1 FROM \($0))" } ?? ""
        var moved = ""
        var guarded = precondition.map { " WHERE EXISTS (SELECT 1 FROM \($0))" } ?? ""
        if let userPosting {
            let (amount, account) = (bind(.integer(userPosting.amount)), bind(.text(userPosting.accountId)))
            moved = """
                moved AS (
                    UPDATE accounts SET balance = balance + \(amount)
                    WHERE id = \(account) AND (balance + \(amount) >= 0 OR may_go_negative = 1)\(preconditionHolds)
                    RETURNING id
                ),
                """
            guarded = " WHERE EXISTS (SELECT 1 FROM moved)"
        }
        var rows: [String] = []
        for posting in entry.postings.sorted(by: { $0.accountId < $1.accountId }) {
            let postingId = bind(.text(Identifier.make("pst")))
            rows.append("(\(postingId), \(bind(.text(posting.accountId))), \(bind(.integer(posting.amount))))")
        }
        return """
            \(moved)
            entry AS (
                INSERT INTO ledger_transactions (id, kind, reference, created_at) SELECT \(id), \(kind), \(reference), \(now)\(guarded)
                RETURNING id
            ),
            written AS (
                INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
                SELECT posting.id, entry.id, posting.account_id, posting.amount, \(now)
                FROM entry CROSS JOIN (VALUES \(rows.joined(separator: ", "))) AS posting (id, account_id, amount)
                RETURNING id
            )
            """
    }

    /// One posting of an entry, with its account's owner, kind and currency.
    package struct EntryPosting: Sendable {
        package let accountId: String
        package let amount: Int64
        package let userId: String?
        package let accountKind: String
        package let currency: String
    }

    /// The postings of the `kind` entry for `reference`, by account; empty if there is none.
    package func postings(kind: LedgerEntryKind, reference: String) async throws -> [EntryPosting] {
        try await sql.query(
            """
            SELECT p.account_id, p.amount, a.user_id, a.kind, a.currency FROM ledger_transactions l
            JOIN postings p ON p.ledger_transaction_id = l.id JOIN accounts a ON a.id = p.account_id
            WHERE l.kind = $1 AND l.reference = $2 ORDER BY p.account_id
            """, [.text(kind.rawValue), .text(reference)]
        ).map { row in
            EntryPosting(
                accountId: try row.string("account_id"), amount: try row.int("amount"),
                userId: try row.optionalString("user_id"), accountKind: try row.string("kind"),
                currency: try row.string("currency"))
        }
    }

    /// Locks the accounts' rows until the transaction ends, in the order of their ids, in one
    /// statement (PostgreSQL only: `FOR UPDATE`).
    package func lock(accountIds: [String]) async throws {
        let ids = Set(accountIds).sorted()
        guard !ids.isEmpty else { return }
        let list = ids.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        _ = try await sql.query(
            "SELECT id FROM accounts WHERE id IN (\(list)) ORDER BY id FOR UPDATE", ids.map { .text($0) })
    }

    /// The balance of an account: cached for user accounts, summed from postings for system ones.
    package func balance(accountId: String) async throws -> Int64 {
        if accountId.hasPrefix("sys:") {
            return try await sql.first(
                "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM postings WHERE account_id = $1",
                [.text(accountId)])?.int("total") ?? 0
        }
        return try await sql.first("SELECT balance FROM accounts WHERE id = $1", [.text(accountId)])?.int("balance")
            ?? 0
    }

    /// The balance of one of a user's accounts; 0 if it was never opened.
    package func balance(userId: String, kind: AccountKind, currency: String) async throws -> Int64 {
        try await balance(accountId: Self.accountId(userId: userId, kind: kind, currency: currency))
    }
}

extension SQLExecutor {
    /// `LedgerRepository` on this connection or transaction.
    package var ledger: LedgerRepository { LedgerRepository(sql: self) }
}
