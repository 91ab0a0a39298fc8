import CountersignServer
import CountersignStore
import Foundation
import Logging
import PostgresNIO
import Testing

/// The engines a test runs on: SQLite always; PostgreSQL when `DATABASE_URL` names a server
/// (`.ci/run` starts one). Without it the PostgreSQL cases are skipped, and say so.
enum TestEngines {
    static let postgresURL: String? = ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    static var all: [DatabaseEngine] {
        if postgresURL == nil {
            reportSkipOnce
            return [.sqlite]
        }
        return [.sqlite, .postgres]
    }

    private static let reportSkipOnce: Void = {
        print(
            "⚠️  PostgreSQL tests SKIPPED: DATABASE_URL is not set. Run `eval \"$(scripts/postgres-up)\"` first to include them."
        )
    }()
}

/// A fresh, migrated database for one test, removed afterwards.
enum TestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` with a new empty database on `engine`.
    static func with<T: Sendable>(
        _ engine: DatabaseEngine, migrate: Bool = true, _ body: @Sendable (any Database) async throws -> T
    ) async throws -> T {
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try await SQLiteDatabase.open(
                path: directory.appendingPathComponent("test.sqlite").path, logger: logger)
            do {
                if migrate { try await Migrator.migrate(database, logger: logger) }
                let result = try await body(database)
                try await database.close()
                return result
            } catch {
                try? await database.close()
                throw error
            }
        case .postgres:
            return try await withFreshPostgres { url in
                // Hundreds of test cases run at once, each with its own pool: 8 connections each keeps
                // the whole suite inside the server's max_connections (scripts/postgres-up sets 2000).
                // Beyond it, pools wait on refused connections and requests time out.
                let database = try PostgresDatabase(url: url, maxConnections: 8, logger: logger)
                return try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try? await database.run() }
                    defer { group.cancelAll() }
                    if migrate { try await Migrator.migrate(database, logger: logger) }
                    return try await body(database)
                }
            }
        }
    }

    /// Creates an empty PostgreSQL database on the `DATABASE_URL` server, runs `body` with its URL,
    /// and drops it afterwards; at most `PostgresTestSlots`' limit of test cases at once.
    static func withFreshPostgres<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        try await PostgresTestSlots.withSlot {
            let url = try #require(TestEngines.postgresURL)
            let name = "cs_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            try await admin(url) { try await $0.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(replacingDatabase(in: url, with: String(name))))
            } catch {
                result = .failure(error)
            }
            try await admin(url) {
                try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
            return try result.get()
        }
    }

    static func replacingDatabase(in url: String, with name: String) -> String {
        guard let slash = url.range(of: "/", options: .backwards), url[..<slash.lowerBound].contains("@") else {
            return url
        }
        return String(url[..<slash.upperBound]) + name
    }

    private static func admin(_ url: String, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        let client = PostgresClient(
            configuration: try PostgresDatabase.configuration(from: url), backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await body(client)
            group.cancelAll()
        }
    }
}
