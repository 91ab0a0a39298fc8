import CountersignServer
import CountersignStore
import Testing

/// The production ledger audit (`CountersignServer.LedgerAudit`, what `countersign audit` runs) for
/// tests, plus row counts.
enum LedgerAudit {
    /// Fails the test, with the report's failed checks, unless every check of the audit passes at `now`.
    static func check(
        _ database: any Database, now: Int64 = WallClock.system.nowMillis(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let report = try await CountersignServer.LedgerAudit().run(on: database, now: now)
        #expect(
            report.passed,
            "ledger audit: \(report.failures.map { "\($0.name) (\($0.offending): \($0.samples))" })",
            sourceLocation: sourceLocation)
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
