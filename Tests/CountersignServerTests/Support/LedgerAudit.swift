import CountersignServer
import CountersignStore
import Testing

/// Checks the ledger's invariants straight from the tables: every ledger transaction sums to zero,
/// and every cached user balance equals the sum of its postings and is not negative.
enum LedgerAudit {
    static func check(_ database: any Database) async throws {
        let unbalanced = try await database.read { sql in
            try await sql.query(
                "SELECT ledger_transaction_id, CAST(SUM(amount) AS BIGINT) AS total FROM postings GROUP BY ledger_transaction_id HAVING SUM(amount) <> 0",
                [])
        }
        #expect(unbalanced.isEmpty, "ledger transactions that do not sum to zero: \(unbalanced.count)")
        let drift = try await database.read { sql in
            try await sql.query(
                """
                SELECT a.id, a.balance, CAST(COALESCE((SELECT SUM(p.amount) FROM postings p WHERE p.account_id = a.id), 0) AS BIGINT) AS posted
                FROM accounts a WHERE a.user_id IS NOT NULL
                """, []
            )
        }
        for row in drift {
            let (balance, posted, id) = (try row.int("balance"), try row.int("posted"), try row.string("id"))
            #expect(balance == posted, "account \(id): cached \(balance) ≠ posted \(posted)")
            #expect(balance >= 0)
        }
    }

    /// How many rows `table` has: to prove a refused request wrote nothing.
    static func count(_ table: String, _ database: any Database) async throws -> Int64 {
        try await database.read { sql in try await sql.first("SELECT COUNT(*) AS n FROM \(table)")?.int("n") ?? -1 }
    }

    /// Row counts of every table money or authorization touches.
    static func snapshot(_ database: any Database) async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for table in [
            "users", "sessions", "credentials", "challenges", "consumed_tokens", "ledger_transactions", "postings",
            "wallet_transactions", "idempotency_keys", "transfers", "transfer_events",
        ] {
            counts[table] = try await count(table, database)
        }
        return counts
    }
}
