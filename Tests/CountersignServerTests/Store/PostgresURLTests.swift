import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// How `DATABASE_URL` names a PostgreSQL server: over TCP, or through its Unix socket on the same
/// machine (`?host=/directory`, as libpq reads it).
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test("a host and port connect over TCP, to the database the path names")
    func tcp() throws {
        let configuration = try PostgresDatabase.configuration(from: "postgres://app:secret@db.internal:6543/books")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.unixSocketPath == nil)
        #expect(configuration.username == "app")
        #expect(configuration.password == "secret")
        #expect(configuration.database == "books")
    }

    @Test(
        "a host parameter that is a directory connects through the socket the port names",
        arguments: [
            ("postgresql://app@localhost:6543/books?host=/var/run/postgresql", "/var/run/postgresql/.s.PGSQL.6543"),
            ("postgres://app:pw@/books?host=%2Ftmp%2Fpg%20dir", "/tmp/pg dir/.s.PGSQL.5432"),
            ("postgres://app@/books?sslmode=disable&host=/run/pg", "/run/pg/.s.PGSQL.5432"),
        ])
    func unixSocket(url: String, socket: String) throws {
        let configuration = try PostgresDatabase.configuration(from: url)
        #expect(configuration.unixSocketPath == socket)
        #expect(configuration.host == nil)
        #expect(configuration.username == "app")
        #expect(configuration.database == "books")
    }

    @Test(
        "a URL without a scheme, a user or anywhere to connect is refused",
        arguments: [
            "mysql://app@db/books", "postgres://db.internal/books", "postgres://app@/books",
            "postgres://app@/books?host=relative/dir", "postgres://app@db:port/books", "db.internal:5432",
        ])
    func refused(url: String) {
        #expect(throws: DatabaseError.self) { try PostgresDatabase.configuration(from: url) }
    }

    @Test("the store works through the server's Unix socket", arguments: TestEngines.all.filter { $0 == .postgres })
    func throughTheSocket(engine: DatabaseEngine) async throws {
        try await TestDatabase.withFreshPostgres { url in
            let directory = try await Self.withDatabase(url) { database in
                try await database.read { sql in
                    try await sql.first("SELECT current_setting('unix_socket_directories') AS directories", [])?
                        .string("directories")
                }
            }
            let first = try #require(
                directory?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) })
            try #require(first.hasPrefix("/"), "the test server listens on no Unix socket")
            let addresses = try await Self.withDatabase(url + "?host=" + first) { database in
                try await Migrator.migrate(database, logger: TestDatabase.logger)
                // A Unix-socket connection has no server address.
                return try await database.read { sql in
                    try await sql.first(
                        """
                        SELECT CASE WHEN inet_server_addr() IS NULL THEN 1 ELSE 0 END AS local, COUNT(*) AS users
                        FROM users
                        """, [])
                }
            }
            #expect(try addresses?.int("local") == 1)
            #expect(try addresses?.int("users") == 0)
        }
    }

    private static func withDatabase<T: Sendable>(
        _ url: String, _ body: @Sendable (PostgresDatabase) async throws -> T
    ) async throws -> T {
        let database = try PostgresDatabase(url: url, maxConnections: 1, logger: TestDatabase.logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try? await database.run() }
            defer { group.cancelAll() }
            return try await body(database)
        }
    }
}
