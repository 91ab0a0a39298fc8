import CSQLite
import CountersignServer
import CountersignStore
import Foundation
import Logging

/// A store holding a `Prefill`'s history, built once and run in by every prefilled round (a round
/// adds thousands of rows to millions): an SQLite data directory, or a database on the PostgreSQL
/// server of `--database-url`. A named one (`--prefill-store`) is kept and reused by later runs;
/// otherwise it is temporary and removed at the end.
struct PrefilledStore: Sendable {
    let prefill: Prefill
    /// SQLite: the data directory the server runs in.
    let dataDirectory: String?
    /// PostgreSQL: the prefilled database on the server, to run the server against.
    let database: ScratchDatabase?
    let temporary: Bool

    var databaseURL: String? { database?.url }

    var description: String {
        "prefilled store (\(prefill)) in \(dataDirectory ?? database?.name ?? "?")"
    }

    /// Builds the store, or finds it already built under `name`; `serverURL` picks PostgreSQL.
    static func prepare(_ prefill: Prefill, name: String?, serverURL: String?) async throws -> PrefilledStore {
        let started = ContinuousClock.now
        var logger = Logger(label: "countersign-bench")
        logger.logLevel = .error
        let built: Bool
        let store: PrefilledStore
        if let serverURL {
            let database = ScratchDatabase(
                serverURL: serverURL, name: name ?? "countersign_prefill_\(Int.random(in: 100_000..<1_000_000))")
            if try await !database.exists() {
                try await ScratchDatabase.execute("CREATE DATABASE \(database.name)", on: serverURL)
            }
            store = PrefilledStore(prefill: prefill, dataDirectory: nil, database: database, temporary: name == nil)
            built = try await store.fillPostgres(logger: logger)
        } else {
            let directory = try name ?? ScratchDatabase.makeTemporaryDirectory()
            store = PrefilledStore(prefill: prefill, dataDirectory: directory, database: nil, temporary: name == nil)
            built = try await store.fillSQLite(directory: directory, logger: logger)
        }
        let seconds = (ContinuousClock.now - started).components.seconds
        Console.say(built ? "built the \(store.description) in \(seconds) s" : "reusing the \(store.description)")
        return store
    }

    /// Removes a temporary store; keeps a named one.
    func remove() async {
        guard temporary else { return }
        if let dataDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) }
        await database?.drop()
    }

    private func fillPostgres(logger: Logger) async throws -> Bool {
        guard let url = databaseURL else { return false }
        let database = try PostgresDatabase(url: url, maxConnections: 1, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.run() }
            defer { group.cancelAll() }
            guard try await migrateAndCheck(database, logger: logger) else { return false }
            let statements = prefill.statements(engine: .postgres, now: Self.nowMillis())
            try await database.transaction { sql in
                for statement in statements { try await sql.execute(statement) }
            }
            // As autovacuum would have long since on a store this old: the planner sees the history's
            // real sizes, and the visibility map lets index-only scans skip the history's pages. Left
            // to autovacuum, it runs during the first measured rounds. (VACUUM refuses a transaction.)
            try await database.read { sql in try await sql.execute("VACUUM ANALYZE") }
            return true
        }
    }

    private func fillSQLite(directory: String, logger: Logger) async throws -> Bool {
        let path = try DataDirectory.prepareDatabaseFile(in: directory)
        let database = try await SQLiteDatabase.open(path: path, readerCount: 1, logger: logger)
        let needed: Bool
        do {
            needed = try await migrateAndCheck(database, logger: logger)
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
        guard needed else { return false }
        // One connection of its own, through the C API: the store's writer runs each transaction in
        // a savepoint of a group commit, whose undo log would hold the whole history in memory.
        // synchronous=OFF: a build cut short is rebuilt, never used (it is one transaction).
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw BenchError("cannot open \(path)")
        }
        defer { sqlite3_close(handle) }
        let script =
            ["PRAGMA synchronous=OFF", "PRAGMA cache_size=-1000000", "BEGIN"]
            + prefill.statements(engine: .sqlite, now: Self.nowMillis())
            + ["COMMIT", "PRAGMA wal_checkpoint(TRUNCATE)"]
        for statement in script {
            var message: UnsafeMutablePointer<CChar>?
            guard sqlite3_exec(handle, statement, nil, nil, &message) == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? "unknown error"
                sqlite3_free(message)
                throw BenchError("prefilling \(path): \(text) in \(statement)")
            }
        }
        return true
    }

    /// Applies the migrations; true if the history still has to be written, false if the store
    /// already holds this prefill (written in one transaction: its last posting means all of it).
    /// A store holding another prefill is refused rather than mixed.
    private func migrateAndCheck(_ database: any Database, logger: Logger) async throws -> Bool {
        try await Migrator.migrate(database, logger: logger)
        let last = prefill.lastPostingId
        return try await database.read { sql in
            if try await sql.first("SELECT id FROM postings WHERE id = $1", [.text(last)]) != nil { return false }
            if try await sql.first("SELECT id FROM users WHERE id LIKE 'usr_pf_%' LIMIT 1") != nil {
                throw BenchError("the prefilled store holds another prefill than \(prefill): remove it or name another")
            }
            return true
        }
    }

    private static func nowMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
