import CoreMetrics
import CountersignStore
import Synchronization

/// The store, timing each unit of work for the metrics: how long it waited before its body ran (a
/// pooled connection, SQLite's writer, `BEGIN`) and how long it took in all, commit included; and
/// counting the statements run, so a load can be read as statements per request.
struct MeteredDatabase: Database {
    let base: any Database
    let metrics: ServerMetrics
    /// `countersign_db_statements_total` and the timers of transactions, single statements and reads
    /// for this engine, looked up once: a request runs several units of work, and each lookup hashed
    /// its labels.
    private let statements: CoreMetrics.Counter
    private let transactions: DatabaseTimers
    private let singles: DatabaseTimers
    private let reads: DatabaseTimers

    init(base: any Database, metrics: ServerMetrics) {
        self.base = base
        self.metrics = metrics
        let engine = base.engine == .postgres ? "postgresql" : "sqlite"
        statements = metrics.statements(engine: engine)
        transactions = metrics.databaseTimers(operation: "transaction", engine: engine)
        singles = metrics.databaseTimers(operation: "single", engine: engine)
        reads = metrics.databaseTimers(operation: "read", engine: engine)
    }

    var engine: DatabaseEngine { base.engine }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await write(in: transactions, body) { try await base.transaction($0) }
    }

    func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await write(in: singles, body) { try await base.single($0) }
    }

    /// A unit of work that writes, run by `run` (the base's `transaction` or `single`), timed and counted.
    private func write<T: Sendable>(
        in timers: DatabaseTimers, _ body: @escaping @Sendable (any SQLExecutor) async throws -> T,
        run: (@escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    ) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { Self.record(in: timers, called: called, started: started.value) }
        return try await run { [statements] sql in
            started.mark()
            return try await body(CountedExecutor(base: sql, statements: statements))
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { Self.record(in: reads, called: called, started: started.value) }
        return try await base.read { [statements] sql in
            started.mark()
            return try await body(CountedExecutor(base: sql, statements: statements))
        }
    }

    func listen(channel: String, onNotification: @escaping @Sendable (String) -> Void) async throws {
        try await base.listen(channel: channel, onNotification: onNotification)
    }

    func notify(channel: String, payload: String, on sql: any SQLExecutor) async throws {
        try await base.notify(channel: channel, payload: payload, on: sql)
    }

    func run() async throws { try await base.run() }

    private static func record(
        in timers: DatabaseTimers, called: ContinuousClock.Instant, started: ContinuousClock.Instant?
    ) {
        let now = ContinuousClock.now
        timers.record(wait: called.duration(to: started ?? now), duration: called.duration(to: now))
    }
}

/// An executor that counts each statement it runs.
private struct CountedExecutor: SQLExecutor {
    let base: any SQLExecutor
    let statements: CoreMetrics.Counter

    var engine: DatabaseEngine { base.engine }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        statements.increment()
        return try await base.query(sql, binds)
    }
}

/// When a body first started (a retried transaction starts again; the first start counts).
private final class StartInstant: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    var value: ContinuousClock.Instant? { instant.withLock { $0 } }

    func mark() {
        instant.withLock { if $0 == nil { $0 = .now } }
    }
}
