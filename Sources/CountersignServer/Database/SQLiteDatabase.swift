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

    package func transaction<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let executor = SQLiteExecutor(connection: writer)
        return try await writerLock.withLock {
            // IMMEDIATE takes the write lock up front, so a second process waits (busy_timeout)
            // rather than failing half-way with SQLITE_BUSY on its first write.
            try await executor.execute("BEGIN IMMEDIATE")
            do {
                let result = try await body(executor)
                try await executor.execute("COMMIT")
                return result
            } catch {
                try? await executor.execute("ROLLBACK")
                throw error
            }
        }
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
            try await connection.query(sql.replacingDollarPlaceholders(), sqliteBinds) { row in
                var values: [String: SQLValue] = [:]
                for column in row.columns {
                    switch column.data {
                    case .integer(let value): values[column.name] = .integer(Int64(value))
                    case .text(let value): values[column.name] = .text(value)
                    case .null: values[column.name] = .null
                    case .float(let value): values[column.name] = .integer(Int64(value))
                    case .blob: values[column.name] = .null
                    }
                }
                rows.append(SQLRow(values: values))
            }
        } catch let error as SQLiteError {
            if case .constraint = error.reason { throw DatabaseError.constraintViolation(error.message) }
            if "\(error.reason)".hasPrefix("constraint") { throw DatabaseError.constraintViolation(error.message) }
            throw DatabaseError.engine(error.description)
        }
        return rows.rows
    }
}

/// Collects rows from sqlite-nio's row callback, which runs on its thread pool.
private final class RowCollector: Sendable {
    private let storage = Mutex<[SQLRow]>([])
    func append(_ row: SQLRow) { storage.withLock { $0.append(row) } }
    var rows: [SQLRow] { storage.withLock { $0 } }
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
