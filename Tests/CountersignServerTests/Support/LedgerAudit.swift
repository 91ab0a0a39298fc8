import CountersignServer
import CountersignStore
import Testing

/// The production ledger audit (`CountersignServer.LedgerAudit`, what `countersign audit` runs) for
/// tests, plus row counts.
enum LedgerAudit {
    /// Fails the test, naming the failed checks and a few offending ids, unless every one of `checks`
    /// passes at `now`.
    static func check(
        _ database: any Database, now: Int64 = WallClock.system.nowMillis(),
        checks: [LedgerAuditCheck] = LedgerAuditCheck.all, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let report = try await CountersignServer.LedgerAudit(checks: checks).run(on: database, now: now)
        let failures = report.failures.map { "\($0.name): \($0.offending) rows, e.g. \($0.samples)" }
        #expect(failures == [], "ledger audit", sourceLocation: sourceLocation)
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
