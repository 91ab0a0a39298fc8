import Logging
import NIOCore
import SQLiteNIO
import ServiceLifecycle
import Synchronization

/// The embedded store: one SQLite file in WAL mode with durable commits (`synchronous=FULL`).
///
/// SQLite allows one writer at a time, so every transaction runs on the single writer connection
/// under a FIFO lock; reads run on a small pool of reader connections, which WAL lets proceed
/// while a write is in progress.
package final class SQLiteDatabase: Database {
    package let engine = DatabaseEngine.sqlite
    private let writer: SQLiteConnection
    private let writerLock = AsyncLock()
    private let readers: [(connection: SQLiteConnection, lock: AsyncLock)]
    private let nextReader = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    private let pending = Mutex<(queue: [PendingWrite], draining: Bool)>(([], false))
    /// At most this many transactions share one commit, to bound the latency of the first.
    private static let maximumBatch = 64
    private let logger: Logger

    private init(writer: SQLiteConnection, readers: [SQLiteConnection], logger: Logger) {
        self.writer = writer
        self.readers = readers.map { ($0, AsyncLock()) }
        self.logger = logger
    }

    /// Opens (creating if needed) the database file at `path` with `readerCount` reader connections.
    package static func open(path: String, readerCount: Int = 2, logger: Logger) async throws -> SQLiteDatabase {
        let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        // WAL: readers don't block the writer. synchronous=FULL: a commit that returned survives
        // power loss. busy_timeout: a second process (the operator CLI) waits instead of failing.
        for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000"] {
            try await writer.query(pragma, [])
        }
        var readers: [SQLiteConnection] = []
        for _ in 0..<readerCount {
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            try await reader.query("PRAGMA busy_timeout=5000", [])
            try await reader.query("PRAGMA query_only=ON", [])
            readers.append(reader)
        }
        return SQLiteDatabase(writer: writer, readers: readers, logger: logger)
    }

    /// Group commit: transactions that arrive while a commit is being made durable wait in a queue;
    /// the next batch runs them one after another, each inside its own savepoint (a failing one is
    /// rolled back to its savepoint alone), and commits them with one fsync. A caller's result is
    /// returned only after that commit, so `synchronous=FULL` durability is kept while the cost of
    /// the fsync is shared.
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let write = PendingWrite(
                run: { executor in
                    do {
                        let value = try await body(executor)
                        outcome.withLock { $0 = .success(value) }
                        return nil
                    } catch {
                        outcome.withLock { $0 = .failure(error) }
                        return error
                    }
                },
                complete: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: outcome.withLock { $0 } ?? .failure(DatabaseError.engine("transaction did not run")))
                    }
                }
            )
            let startDrain = pending.withLock { state -> Bool in
                state.queue.append(write)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startDrain { Task { await self.drain() } }
        }
    }

    /// Commits queued transactions batch by batch until the queue is empty.
    private func drain() async {
        while true {
            let batch = pending.withLock { state -> [PendingWrite] in
                let batch = Array(state.queue.prefix(Self.maximumBatch))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            _ = try? await writerLock.withLock { await self.commit(batch) }
        }
    }

    private func commit(_ batch: [PendingWrite]) async {
        let executor = SQLiteExecutor(connection: writer)
        do {
            // IMMEDIATE takes the write lock up front, so a second process waits (busy_timeout)
            // rather than failing half-way with SQLITE_BUSY on its first write.
            try await executor.execute("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.complete(error) }
            return
        }
        var failures: [(any Error)?] = []
        for (index, write) in batch.enumerated() {
            do {
                try await executor.execute("SAVEPOINT w\(index)")
                if let error = await write.run(executor) {
                    failures.append(error)
                    try await executor.execute("ROLLBACK TO w\(index)")
                } else {
                    failures.append(nil)
                }
                try await executor.execute("RELEASE w\(index)")
            } catch {
                // The connection could not even manage the savepoint: give up on the whole batch.
                try? await executor.execute("ROLLBACK")
                batch.forEach { $0.complete(error) }
                return
            }
        }
        do {
            try await executor.execute("COMMIT")
        } catch {
            try? await executor.execute("ROLLBACK")
            batch.forEach { $0.complete(error) }
            return
        }
        for (write, failure) in zip(batch, failures) { write.complete(failure) }
    }

    package func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        guard !readers.isEmpty else {
            return try await writerLock.withLock { try await body(SQLiteExecutor(connection: self.writer)) }
        }
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        let reader = readers[index]
        return try await reader.lock.withLock { try await body(SQLiteExecutor(connection: reader.connection)) }
    }

    package func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }

    package func listen(channel: String, onNotification: @escaping @Sendable (String) -> Void) async throws {
        // One process owns the file; its own writers signal directly. Wait to be cancelled.
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }

    package func notify(channel: String, payload: String, on sql: any SQLExecutor) async throws {}

    /// Closes every connection; later calls do nothing.
    package func close() async throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try await writerLock.withLock { try await self.writer.close() }
        for reader in readers {
            try await reader.lock.withLock { try await reader.connection.close() }
        }
    }
}

/// Runs statements on one SQLite connection, translating `$N` placeholders to SQLite's `?N`.
struct SQLiteExecutor: SQLExecutor {
    let connection: SQLiteConnection

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let sqliteBinds: [SQLiteData] = binds.map {
            switch $0 {
            case .integer(let value): .integer(SQLiteInt64(value))
            case .text(let value): .text(value)
            case .null: .null
            }
        }
        let rows = RowCollector()
        do {
            try await connection.query(PlaceholderCache.shared.sqlite(for: sql), sqliteBinds) { row in
                var values: [String: SQLValue] = [:]
                for column in row.columns {
                    switch column.data {
                    case .integer(let value): values[column.name] = .integer(Int64(value))
                    case .text(let value): values[column.name] = .text(value)
                    case .null: values[column.name] = .null
                    // The schema stores no REAL or BLOB: leave the column out, so reading it fails
                    // loudly as a decoding error instead of yielding a coerced value.
                    case .float, .blob: continue
                    }
                }
                rows.append(SQLRow(values: values))
            }
        } catch let error as SQLiteError {
            // `.constraint` and its extended codes (`.constraintCheckFailed`, …).
            if "\(error.reason)".hasPrefix("constraint") { throw DatabaseError.constraintViolation(error.message) }
            throw DatabaseError.engine(error.description)
        }
        return rows.rows
    }
}

/// A transaction waiting for the writer: `run` executes its body (returning its error, if any);
/// `complete` hands the caller its outcome once the batch's commit is durable.
private struct PendingWrite: Sendable {
    let run: @Sendable (SQLiteExecutor) async -> (any Error)?
    let complete: @Sendable ((any Error)?) -> Void
}

/// Collects rows from sqlite-nio's row callback, which runs on its thread pool.
private final class RowCollector: Sendable {
    private let storage = Mutex<[SQLRow]>([])
    func append(_ row: SQLRow) { storage.withLock { $0.append(row) } }
    var rows: [SQLRow] { storage.withLock { $0 } }
}

/// The SQLite spelling of each statement, rewritten once: the same few dozen statements run on
/// every request.
final class PlaceholderCache: Sendable {
    static let shared = PlaceholderCache()
    private let cache = Mutex<[String: String]>([:])

    func sqlite(for sql: String) -> String {
        if let cached = cache.withLock({ $0[sql] }) { return cached }
        let rewritten = sql.replacingDollarPlaceholders()
        cache.withLock { $0[sql] = rewritten }
        return rewritten
    }
}

extension String {
    /// `$1` → `?1`: SQLite's numbered parameters bind by index, as PostgreSQL's do.
    func replacingDollarPlaceholders() -> String {
        guard contains("$") else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        var inLiteral = false
        for character in self {
            if character == "'" { inLiteral.toggle() }
            result.append(character == "$" && !inLiteral ? "?" : character)
        }
        return result
    }
}
