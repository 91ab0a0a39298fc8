import CoreMetrics
import CountersignStore
import Synchronization

/// The store, timing each unit of work for the metrics: how long it waited before its body ran (a
/// pooled connection, SQLite's writer, `BEGIN`) and how long it took in all, commit included; and
/// counting the statements run, so a load can be read as statements per request.
struct MeteredDatabase: Database {
    let base: any Database
    let metrics: ServerMetrics
    /// `countersign_db_statements_total` for this engine, looked up once.
    private let statements: CoreMetrics.Counter

    init(base: any Database, metrics: ServerMetrics) {
        self.base = base
        self.metrics = metrics
        statements = metrics.statements(engine: base.engine == .postgres ? "postgresql" : "sqlite")
    }

    var engine: DatabaseEngine { base.engine }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await write("transaction", body) { try await base.transaction($0) }
    }

    func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await write("single", body) { try await base.single($0) }
    }

    /// A unit of work that writes, run by `run` (the base's `transaction` or `single`), timed and counted.
    private func write<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLExecutor) async throws -> T,
        run: (@escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    ) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { record(operation, called: called, started: started.value) }
        return try await run { [statements] sql in
            started.mark()
            return try await body(CountedExecutor(base: sql, statements: statements))
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { record("read", called: called, started: started.value) }
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

    private func record(_ operation: String, called: ContinuousClock.Instant, started: ContinuousClock.Instant?) {
        let now = ContinuousClock.now
        metrics.database(
            operation: operation, engine: engine == .postgres ? "postgresql" : "sqlite",
            wait: called.duration(to: started ?? now), duration: called.duration(to: now))
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
