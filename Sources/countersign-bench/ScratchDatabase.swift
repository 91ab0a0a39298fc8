import CountersignServer
import CountersignStore
import Foundation
import Logging

/// A throwaway database on the PostgreSQL server the bench is pointed at, so every run starts
/// from an empty schema at the current migrations, whatever earlier runs or builds left behind.
struct ScratchDatabase: Sendable {
    /// The URL the bench was given; used to create and drop the scratch database.
    let serverURL: String
    /// The scratch database's name, e.g. `countersign_bench_482913`.
    let name: String

    /// The URL of the scratch database: `serverURL` with its path replaced.
    var url: String { Self.replacingDatabase(in: serverURL, with: name) }

    /// Creates a uniquely named database on the server `serverURL` points at.
    static func create(on serverURL: String) async throws -> ScratchDatabase {
        let scratch = ScratchDatabase(
            serverURL: serverURL, name: "countersign_bench_\(Int.random(in: 100_000..<1_000_000))")
        try await execute("CREATE DATABASE \(scratch.name)", on: serverURL)
        return scratch
    }

    /// Drops the scratch database, disconnecting anyone still on it (PostgreSQL 13+).
    func drop() async {
        do {
            try await Self.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: serverURL)
        } catch {
            Console.say("could not drop scratch database \(name): \(error)")
        }
    }

    /// Whether the server already has a database of this name (a kept prefilled store).
    func exists() async throws -> Bool {
        try await Self.withServer(serverURL) { database in
            try await database.read { sql in
                try await sql.first("SELECT 1 AS found FROM pg_database WHERE datname = $1", [.text(name)]) != nil
            }
        }
    }

    /// Runs one statement outside a transaction (CREATE/DROP DATABASE refuse to run inside one).
    static func execute(_ statement: String, on url: String) async throws {
        try await withServer(url) { database in
            try await database.read { sql in try await sql.execute(statement) }
        }
    }

    /// Runs `body` with one connection to `url`.
    private static func withServer<T: Sendable>(
        _ url: String, _ body: @escaping @Sendable (PostgresDatabase) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "countersign-bench")
        logger.logLevel = .error // PostgresNIO warns when the first lease races run(); it waits, harmlessly
        let database = try PostgresDatabase(url: url, maxConnections: 1, logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await database.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(database)
        }
    }

    /// Runs `body` with a fresh temp directory and the database URL to use: a scratch database on
    /// `databaseURL`'s server when `scratch`, the given URL otherwise, SQLite when nil. The scratch
    /// database is always dropped; the directory is removed unless `keepData` or `body` failed.
    static func withFreshStore<T>(
        databaseURL: String?, scratch: Bool, keepData: Bool, _ body: (String, String?) async throws -> T
    ) async throws -> T {
        let directory = try makeTemporaryDirectory()
        var database: ScratchDatabase?
        if let databaseURL, scratch { database = try await ScratchDatabase.create(on: databaseURL) }
        let result: T
        do {
            result = try await body(directory, database?.url ?? databaseURL)
        } catch {
            await database?.drop()
            Console.say("server log and data kept in \(directory)")
            throw error
        }
        await database?.drop()
        if keepData {
            Console.say("data kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
        return result
    }

    /// A fresh 0700 directory under the temp dir for the SQLite file, secrets and the server log.
    static func makeTemporaryDirectory() throws -> String {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("countersign-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }

    /// `postgres://user:pw@host:port/old?query` → `postgres://user:pw@host:port/<name>?query`.
    static func replacingDatabase(in url: String, with name: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        let queryStart = afterScheme.firstIndex(of: "?") ?? url.endIndex
        let authorityEnd = afterScheme[..<queryStart].firstIndex(of: "/") ?? queryStart
        return String(url[..<authorityEnd]) + "/" + name + String(url[queryStart...])
    }
}
