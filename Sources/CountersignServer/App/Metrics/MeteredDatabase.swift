import CountersignStore
import Synchronization

/// The store, timing each unit of work for the metrics: how long it waited before its body ran (a
/// pooled connection, SQLite's writer, `BEGIN`) and how long it took in all, commit included.
struct MeteredDatabase: Database {
    let base: any Database
    let metrics: ServerMetrics

    var engine: DatabaseEngine { base.engine }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { record("transaction", called: called, started: started.value) }
        return try await base.transaction { sql in
            started.mark()
            return try await body(sql)
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let called = ContinuousClock.now
        let started = StartInstant()
        defer { record("read", called: called, started: started.value) }
        return try await base.read { sql in
            started.mark()
            return try await body(sql)
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

/// When a body first started (a retried transaction starts again; the first start counts).
private final class StartInstant: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    var value: ContinuousClock.Instant? { instant.withLock { $0 } }

    func mark() {
        instant.withLock { if $0 == nil { $0 = .now } }
    }
}
