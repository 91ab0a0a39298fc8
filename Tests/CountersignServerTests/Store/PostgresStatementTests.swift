import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// PostgreSQL runs our statements as named prepared statements (`PreparedStatements`); these are
/// the cases where that could go wrong. They need a PostgreSQL server (`DATABASE_URL`).
@Suite("PostgreSQL prepared statements")
struct PostgresStatementTests {
    static var engines: [DatabaseEngine] { TestEngines.all.filter { $0 == .postgres } }

    /// `body` against a fresh migrated database through a pool of exactly one connection, so that
    /// every statement meets what earlier ones left on that connection.
    static func withOneConnection(_ body: @Sendable (any Database) async throws -> Void) async throws {
        try await TestDatabase.withFreshPostgres { url in
            let database = try PostgresDatabase(url: url, maxConnections: 1, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try? await database.run() }
                defer { group.cancelAll() }
                try await Migrator.migrate(database, logger: TestDatabase.logger)
                try await body(database)
            }
        }
    }

    @Test(
        "a statement first prepared inside an aborted transaction works on that connection afterwards",
        arguments: engines)
    func preparedInAbortedTransaction(engine: DatabaseEngine) async throws {
        try await Self.withOneConnection { database in
            // SQL no other test sends, so its first preparation on this connection happens below.
            let sql = "SELECT COUNT(*) AS n FROM users WHERE name = $1 AND id <> $2 /* prepared-in-aborted */"
            await #expect(throws: DatabaseError.self) {
                try await database.transaction { sql2 in
                    // A failing statement aborts the transaction; the next one, prepared for the
                    // first time here, is refused with 25P02.
                    _ = try? await sql2.execute("SELECT 1 / 0 AS boom WHERE $1 = 1", [.integer(1)])
                    _ = try await sql2.query(sql, [.text("nobody"), .text("x")])
                }
            }
            let count = try await database.read { executor in
                try await executor.first(sql, [.text("nobody"), .text("x")])?.int("n")
            }
            #expect(count == 0)
        }
    }

    @Test(
        "the same SQL with a NULL or a value in one place, and a constraint failure, all keep working",
        arguments: engines)
    func nullsAndConstraints(engine: DatabaseEngine) async throws {
        try await Self.withOneConnection { database in
            let insert =
                "INSERT INTO users (id, phone, name, pin_hash, user_handle, created_at) VALUES ($1, $2, $3, $4, $5, $6)"
            try await database.transaction { sql in
                try await sql.execute(
                    insert, [.text("u1"), .text("08010000001"), .text("One"), .text("h"), .text("uh1"), .integer(1)])
            }
            // The same insert again: a unique violation at execution, which must not retire the name.
            let duplicate = await #expect(throws: DatabaseError.self) {
                try await database.transaction { sql in
                    try await sql.execute(
                        insert,
                        [.text("u1"), .text("08010000001"), .text("One"), .text("h"), .text("uh1"), .integer(1)])
                }
            }
            guard case .constraintViolation = duplicate else {
                Issue.record("expected a constraint violation, got \(String(describing: duplicate))")
                return
            }
            try await database.transaction { sql in
                try await sql.execute(
                    insert, [.text("u2"), .text("08010000002"), .text("Two"), .text("h"), .text("uh2"), .integer(2)])
            }
            let select = "SELECT id FROM users WHERE ($1::text IS NULL OR id = $1) ORDER BY id"
            let all = try await database.read { sql in try await sql.query(select, [.null]).map { try $0.string("id") }
            }
            let one = try await database.read { sql in
                try await sql.query(select, [.text("u2")]).map { try $0.string("id") }
            }
            #expect(all == ["u1", "u2"])
            #expect(one == ["u2"])
        }
    }
}
