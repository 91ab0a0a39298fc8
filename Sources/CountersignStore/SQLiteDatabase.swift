import CSQLiteWAL
import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The embedded store: one SQLite file in WAL mode with durable commits (`synchronous=FULL`).
///
/// SQLite allows one writer at a time, so every transaction runs on the single writer connection;
/// reads run on a small pool of reader connections, which WAL lets proceed while a write is in
/// progress. Reads run their statements on the calling task's thread (see
/// `SQLiteConnectionHandle`); transactions run, batch by batch, on a thread of the writer's own.
package final class SQLiteDatabase: Database {
    package let engine = DatabaseEngine.sqlite
    private let writer: SQLiteConnectionHandle
    private let writerLock = AsyncLock()
    private let readers: ReaderPool
    private let closed = Atomic<Bool>(false)
    private let pending = Mutex<(queue: [PendingWrite], draining: Bool)>(([], false))
    /// At most this many transactions share one commit, to bound the latency of the first.
    private static let maximumBatch = 64
    /// Where batches run: bodies, `BEGIN IMMEDIATE` (which may wait for another process's lock)
    /// and `COMMIT` (which waits for `fsync`).
    private let writerThread = DedicatedThreadExecutor(name: "sqlite-writer")

    private init(writer: SQLiteConnectionHandle, readers: [SQLiteConnectionHandle]) {
        self.writer = writer
        self.readers = ReaderPool(readers)
    }

    /// The WAL's size, in pages, at which a commit copies it back into the database file.
    package static let walCheckpointPages = 10_000

    /// Since the process started: the writes SQLite asked for on WAL files, and the write calls that
    /// reached the files (`CSQLiteWAL` gathers a commit's into one).
    package static var walWrites: (requested: UInt64, made: UInt64) {
        (countersign_wal_vfs_requested_writes(), countersign_wal_vfs_file_writes())
    }

    /// Opens (creating if needed) the database file at `path` with `readerCount` reader connections.
    package static func open(path: String, readerCount: Int = 4, logger: Logger) async throws -> SQLiteDatabase {
        try await NIOThreadPool.singleton.runIfActive {
            let writer = try SQLiteConnectionHandle(path: path)
            // WAL: readers don't block the writer. synchronous=FULL: a commit that returned survives
            // power loss. The busy timeout (set by the handle) makes a second process (the operator
            // CLI) wait instead of failing.
            for pragma in [
                "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                // Each transaction of a batch runs in a savepoint, whose undo copies of pages (the
                // statement journal) need not go through a temporary file.
                "PRAGMA temp_store=MEMORY",
                // Copy the WAL back into the database file once it holds 10,000 pages (about 40 MB)
                // rather than SQLite's 1,000. A page most payments change (an index's root and
                // inner pages, the busiest accounts) is copied once per checkpoint however often it
                // changed, so checkpointing a tenth as often copies fewer pages a payment. The
                // checkpoint runs in the commit that crosses the mark; the WAL file is then reused.
                "PRAGMA wal_autocheckpoint=\(walCheckpointPages)",
            ] {
                try writer.execute(pragma)
            }
            var readers: [SQLiteConnectionHandle] = []
            for _ in 0..<max(readerCount, 1) {
                let reader = try SQLiteConnectionHandle(path: path)
                try reader.execute("PRAGMA query_only=ON")
                readers.append(reader)
            }
            logger.debug("opened the SQLite store", metadata: ["path": "\(path)", "readers": "\(readers.count)"])
            return SQLiteDatabase(writer: writer, readers: readers)
        }
    }

    /// Group commit: transactions that arrive while a commit is being made durable wait in a queue;
    /// the next batch runs them one after another, each inside its own savepoint (a failing one is
    /// rolled back to its savepoint alone), and commits them with one fsync. A caller's result is
    /// returned only after that commit, so `synchronous=FULL` durability is kept while the cost of
    /// the fsync is shared.
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws
        -> T
    {
        let value = try await enqueue { executor in try await body(executor) }
        guard let value = value as? T else { throw DatabaseError.engine("a transaction returned another type") }
        return value
    }

    /// `transaction` without its type parameter: called from another module, a generic body
    /// instantiated its mutex, continuation and closures' types at run time on every call.
    private func enqueue(_ body: @escaping @Sendable (any SQLExecutor) async throws -> any Sendable) async throws
        -> any Sendable
    {
        let outcome = Mutex<Result<any Sendable, any Error>?>(nil)
        return try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<any Sendable, any Error>) in
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
                        continuation.resume(
                            with: outcome.withLock { $0 } ?? .failure(DatabaseError.engine("transaction did not run")))
                    }
                }
            )
            let startDrain = pending.withLock { state -> Bool in
                state.queue.append(write)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startDrain { Task(executorPreference: writerThread) { await self.drain() } }
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
        let writer = self.writer
        let executor = SQLiteExecutor(connection: writer)
        do {
            // IMMEDIATE takes the write lock up front, so a second process waits (busy timeout)
            // rather than failing half-way with SQLITE_BUSY on its first write.
            try writer.execute("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.complete(error) }
            return
        }
        var failures: [(any Error)?] = []
        for (index, write) in batch.enumerated() {
            do {
                try writer.execute("SAVEPOINT w\(index)")
                if let error = await write.run(executor) {
                    failures.append(error)
                    try writer.execute("ROLLBACK TO w\(index)")
                } else {
                    failures.append(nil)
                }
                try writer.execute("RELEASE w\(index)")
            } catch {
                // The connection could not even manage the savepoint: give up on the whole batch.
                try? writer.execute("ROLLBACK")
                batch.forEach { $0.complete(error) }
                return
            }
        }
        do {
            try writer.execute("COMMIT")
        } catch {
            try? writer.execute("ROLLBACK")
            batch.forEach { $0.complete(error) }
            return
        }
        for (write, failure) in zip(batch, failures) { write.complete(failure) }
    }

    package func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let reader = await readers.borrow()
        defer { readers.giveBack(reader) }
        return try await body(SQLiteExecutor(connection: reader))
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

    /// Closes every connection, after the transaction and reads in progress; later calls fail.
    package func close() async throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try await writerLock.withLock { self.writer.close() }
        await readers.closeAll()
    }
}

/// Runs statements on one SQLite connection, translating `$N` placeholders to SQLite's `?N`.
struct SQLiteExecutor: SQLExecutor {
    let connection: SQLiteConnectionHandle

    var engine: DatabaseEngine { .sqlite }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try connection.query(sql, binds)
    }
}

/// A transaction waiting for the writer: `run` executes its body (returning its error, if any);
/// `complete` hands the caller its outcome once the batch's commit is durable.
private struct PendingWrite: Sendable {
    let run: @Sendable (SQLiteExecutor) async -> (any Error)?
    let complete: @Sendable ((any Error)?) -> Void
}

/// The reader connections: a read borrows one for its whole body and waits, in order, when all are lent.
private final class ReaderPool: Sendable {
    private let state:
        Mutex<(idle: [SQLiteConnectionHandle], waiters: [CheckedContinuation<SQLiteConnectionHandle, Never>])>
    private let count: Int

    init(_ readers: [SQLiteConnectionHandle]) {
        state = Mutex((readers, []))
        count = readers.count
    }

    func borrow() async -> SQLiteConnectionHandle {
        if let reader = state.withLock({ $0.idle.popLast() }) { return reader }
        return await withCheckedContinuation { continuation in
            let reader = state.withLock { state -> SQLiteConnectionHandle? in
                if let reader = state.idle.popLast() { return reader }
                state.waiters.append(continuation)
                return nil
            }
            if let reader { continuation.resume(returning: reader) }
        }
    }

    func giveBack(_ reader: SQLiteConnectionHandle) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteConnectionHandle, Never>? in
            guard !state.waiters.isEmpty else {
                state.idle.append(reader)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: reader)
    }

    /// Borrows every reader in turn (so reads in progress finish first) and closes it.
    func closeAll() async {
        var closed: [SQLiteConnectionHandle] = []
        for _ in 0..<count {
            let reader = await borrow()
            reader.close()
            closed.append(reader)
        }
        closed.forEach(giveBack)
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
