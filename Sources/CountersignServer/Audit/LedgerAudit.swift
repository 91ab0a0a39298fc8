import CountersignStore

/// Checks the books straight from the tables, on either engine: a fixed set of named checks
/// (`LedgerAuditCheck.all`), each one set-based query that finds the rows breaking one invariant.
/// It reads only; run it on a live store or a stopped one (a restored backup, a crash test's data).
package struct LedgerAudit: Sendable {
    /// How many offending ids a result shows.
    package static let sampleSize = 5

    let checks: [LedgerAuditCheck]

    /// An audit running `checks` (every check unless told otherwise).
    package init(checks: [LedgerAuditCheck] = LedgerAuditCheck.all) {
        self.checks = checks
    }

    /// Runs every check at `now` (milliseconds since 1970, for the age of pending top-ups).
    package func run(on database: any Database, now: Int64) async throws -> LedgerAuditReport {
        try await database.read { sql in try await run(on: sql, now: now) }
    }

    /// Runs every check on `sql`: inside a transaction, it sees that transaction's own writes.
    package func run(on sql: any SQLExecutor, now: Int64) async throws -> LedgerAuditReport {
        var results: [LedgerAuditReport.Result] = []
        for check in checks {
            // One round trip per check: the window counts every offender before LIMIT keeps a few.
            let rows = try await sql.query(
                """
                SELECT COUNT(*) OVER () AS offending, id FROM (\(check.offenders)) offenders
                ORDER BY id LIMIT \(Self.sampleSize)
                """,
                check.binds(now))
            results.append(
                LedgerAuditReport.Result(
                    check, offending: try rows.first?.int("offending") ?? 0,
                    samples: try rows.map { try $0.string("id") }
                ))
        }
        return LedgerAuditReport(results: results)
    }
}

/// What an audit found: one result per check, in the order they ran.
package struct LedgerAuditReport: Sendable, Codable, Equatable {
    /// One check's outcome.
    package struct Result: Sendable, Codable, Equatable {
        /// The check's stable name, e.g. `entries_balanced`.
        package let name: String
        /// The invariant it holds the books to.
        package let summary: String
        /// How many rows break it.
        package let offending: Int64
        /// A few of their ids (ledger, account, transaction, order, transfer or claim ids; never a secret).
        package let samples: [String]

        /// Whether no row breaks the invariant.
        package let passed: Bool

        init(_ check: LedgerAuditCheck, offending: Int64, samples: [String]) {
            (name, summary, passed) = (check.name, check.summary, offending == 0)
            (self.offending, self.samples) = (offending, samples)
        }
    }

    /// Whether every check passed.
    package let passed: Bool
    package let results: [Result]

    init(results: [Result]) {
        (self.passed, self.results) = (results.allSatisfy(\.passed), results)
    }

    /// The checks that failed.
    package var failures: [Result] { results.filter { !$0.passed } }
}
