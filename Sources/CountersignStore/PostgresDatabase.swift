import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The scale-out store: a PostgreSQL server reached through PostgresNIO's connection pool.
package final class PostgresDatabase: Database {
    package let engine = DatabaseEngine.postgres
    private let client: PostgresClient
    private let logger: Logger
    private let running = Atomic<Bool>(false)

    /// A store for the server at `url` (`postgres://user:password@host:port/database`).
    /// Call `run()` (or add it to a service group) before the first query.
    ///
    /// With `keepingConnections` (a server's pool), all `maxConnections` are opened at the start and kept,
    /// and no keep-alive query is sent: the pool schedules a timer task for each of those every time a
    /// connection is handed back and cancels it at the next lease, which cost a payment of 16 statements
    /// about 700 µs of the server's CPU (a quarter of it). A connection the server or the network closes
    /// is still dropped and reopened; for one cut off silently, PostgreSQL sends TCP keep-alives from its
    /// side (`tcp_keepalives_idle`). Without `keepingConnections` (an operator command), connections open
    /// on demand and close after a minute idle.
    package init(url: String, maxConnections: Int = 20, keepingConnections: Bool = true, logger: Logger) throws {
        var configuration = try PostgresDatabase.configuration(from: url)
        configuration.options.maximumConnections = maxConnections
        if keepingConnections {
            configuration.options.minimumConnections = maxConnections
            configuration.options.keepAliveBehavior = nil
        }
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Parses a `postgres://` or `postgresql://` URL; TLS is off unless `sslmode=require` is given.
    /// A `host` parameter that is a directory (`?host=/var/run/postgresql`) connects through the
    /// server's Unix socket in it, as libpq does; the port names the socket (`.s.PGSQL.5432`).
    package static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponentsLite(url), ["postgres", "postgresql"].contains(components.scheme),
            let user = components.user
        else {
            throw DatabaseError.configuration("DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let database = components.path.isEmpty ? nil : components.path
        if let directory = components.query["host"].map(URLComponentsLite.percentDecoded), directory.hasPrefix("/") {
            let socket = "\(directory)/.s.PGSQL.\(components.port ?? 5432)"
            return PostgresClient.Configuration(
                unixSocketPath: socket, username: user, password: components.password, database: database)
        }
        guard let host = components.host, !host.isEmpty else {
            throw DatabaseError.configuration("DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let tls: PostgresClient.Configuration.TLS =
            components.query["sslmode"] == "require" ? .require(.makeClientConfiguration()) : .disable
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password, database: database, tls: tls
        )
    }

    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws
        -> T
    {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(PostgresExecutor(connection: connection, logger: logger))
            }
        } catch let error as PostgresTransactionError {
            // Surface the closure's own error (a domain refusal) rather than the wrapper.
            if let closureError = error.closureError { throw closureError }
            throw DatabaseError.engine(String(reflecting: error))
        }
    }

    package func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await body(PostgresExecutor(connection: connection, logger: logger))
        }
    }

    package func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws
        -> T
    {
        try await client.withConnection { connection in
            try await body(SingleStatementExecutor(base: PostgresExecutor(connection: connection, logger: logger)))
        }
    }

    package func listen(channel: String, onNotification: @escaping @Sendable (String) -> Void) async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                for try await notification in notifications { onNotification(notification.payload) }
            }
        }
    }

    package func notify(channel: String, payload: String, on sql: any SQLExecutor) async throws {
        // pg_notify returns void, which has no text form: select a constant beside it.
        try await sql.execute(
            "SELECT 1 AS sent FROM (SELECT pg_notify($1, $2)) AS notified", [.text(channel), .text(payload)])
    }

    /// Runs the connection pool until cancelled. A second call (the store shared by an operator
    /// session and a server) only waits: PostgresClient must be run exactly once.
    package func run() async throws {
        if running.exchange(true, ordering: .acquiringAndReleasing) {
            try? await gracefulShutdown()
            return
        }
        await client.run()
    }
}

/// Runs statements on one PostgreSQL connection.
struct PostgresExecutor: SQLExecutor {
    let connection: PostgresConnection
    let logger: Logger

    var engine: DatabaseEngine { .postgres }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        var types: [PostgresDataType] = []
        types.reserveCapacity(binds.count)
        for bind in binds {
            switch bind {
            case .integer(let value):
                bindings.append(value)
                types.append(.int8)
            case .text(let value):
                bindings.append(value)
                types.append(.text)
            case .null:
                bindings.appendNull()
                types.append(.null) // unspecified: PostgreSQL infers it from the statement
            }
        }
        do {
            let rows: [PostgresRow]
            if PreparedStatements.isPreparable(sql) {
                let name = PreparedStatements.name(sql: sql, types: types)
                do {
                    rows = try await PreparedStatements.run(
                        sql, name: name, types: types, bindings: bindings, on: connection, logger: logger)
                } catch let error as PSQLError {
                    // A constraint, serialization or deadlock failure happens when the statement
                    // runs, not when it is prepared: the name is still good. Anything else may have
                    // been a failed preparation, which PostgresNIO would keep failing on this connection.
                    let state = error.serverInfo?[.sqlState] ?? ""
                    if !state.hasPrefix("23"), !state.hasPrefix("40") {
                        PreparedStatements.retire(sql: sql, types: types)
                    }
                    throw error
                }
            } else {
                var collected: [PostgresRow] = []
                for try await row in try await connection.query(
                    PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
                {
                    collected.append(row)
                }
                rows = collected
            }
            guard let first = rows.first else { return [] }
            let columns = SQLColumns(first.map(\.columnName))
            return try rows.map { row in
                var cells: [SQLValue?] = []
                cells.reserveCapacity(columns.names.count)
                for cell in row { cells.append(try Self.value(of: cell)) }
                return SQLRow(columns: columns, cells: cells)
            }
        } catch let error as PSQLError {
            let state = error.serverInfo?[.sqlState] ?? ""
            // 23xxx: integrity constraint violations (unique, check, foreign key).
            if state.hasPrefix("23") {
                throw DatabaseError.constraintViolation(error.serverInfo?[.message] ?? state)
            }
            throw DatabaseError.engine("\(state) \(error.serverInfo?[.message] ?? String(reflecting: error))")
        }
    }

    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }
}
