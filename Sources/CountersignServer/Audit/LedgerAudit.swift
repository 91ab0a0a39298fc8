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

    /// Runs every check at `now` (milliseconds since 1970, for the age of pending top-ups), on up to
    /// `connections` of the store's connections at once. The checks are independent statements, each
    /// one consistent in itself, so they need not share a snapshot: on two cores, two connections
    /// audit ten million postings in about half the time of one. The report lists the checks in
    /// their order either way.
    package func run(on database: any Database, now: Int64, connections: Int = 1) async throws -> LedgerAuditReport {
        let width = min(max(connections, 1), checks.count)
        var results = [LedgerAuditReport.Result?](repeating: nil, count: checks.count)
        try await withThrowingTaskGroup(of: (Int, LedgerAuditReport.Result).self) { group in
            // `width` checks run at a time; each one that finishes makes room for the next.
            var next = 0
            func startNext() {
                guard next < checks.count else { return }
                let (index, check) = (next, checks[next])
                next += 1
                group.addTask { (index, try await Self.result(of: check, on: database, now: now)) }
            }
            for _ in 0..<width { startNext() }
            for try await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return LedgerAuditReport(results: results.compactMap { $0 })
    }

    /// Runs every check on `sql`: inside a transaction, it sees that transaction's own writes.
    package func run(on sql: any SQLExecutor, now: Int64) async throws -> LedgerAuditReport {
        var results: [LedgerAuditReport.Result] = []
        for check in checks {
            results.append(try await Self.result(of: check, on: sql, now: now))
        }
        return LedgerAuditReport(results: results)
    }

    /// What one check may use for each sort or hash on PostgreSQL. The largest checks group millions
    /// of rows, which the server's default (4 MB) spills to disk in batches: on ten million postings
    /// `top_ups_have_entries` took 29 s with it and 17 s with this (more did not help).
    static let postgresWorkMemory = "64MB"

    /// One check on a connection of its own. On PostgreSQL it runs in a transaction that raises
    /// `work_mem` for itself alone (`SET LOCAL` ends with it); on SQLite, a read (a transaction
    /// would queue behind the writer's).
    private static func result(of check: LedgerAuditCheck, on database: any Database, now: Int64) async throws
        -> LedgerAuditReport.Result
    {
        switch database.engine {
        case .postgres:
            return try await database.transaction { sql in
                try await sql.execute("SET LOCAL work_mem = '\(postgresWorkMemory)'")
                return try await result(of: check, on: sql, now: now)
            }
        case .sqlite:
            return try await database.read { sql in try await result(of: check, on: sql, now: now) }
        }
    }

    /// One check, in one round trip: the window counts every offender before LIMIT keeps a few.
    private static func result(of check: LedgerAuditCheck, on sql: any SQLExecutor, now: Int64) async throws
        -> LedgerAuditReport.Result
    {
        let rows = try await sql.query(
            """
            SELECT COUNT(*) OVER () AS offending, id FROM (\(check.offenders)) offenders
            ORDER BY id LIMIT \(sampleSize)
            """,
            check.binds(now))
        return LedgerAuditReport.Result(
            check, offending: try rows.first?.int("offending") ?? 0, samples: try rows.map { try $0.string("id") })
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
