import ServiceLifecycle
import Synchronization

/// Which SQL engine a `Database` speaks to.
package enum DatabaseEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres
    package var description: String { rawValue }
}

/// Something that runs SQL: a connection inside a transaction, or one borrowed for a read.
///
/// SQL is written once, with `$1, $2, …` placeholders, in the subset both engines share.
package protocol SQLExecutor: Sendable {
    /// The engine the statements run on, for the few written differently for each.
    var engine: DatabaseEngine { get }

    /// Runs one statement and returns its rows (use `RETURNING` to learn what a write touched).
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLExecutor {
    /// Runs one statement for its effect.
    package func execute(_ sql: String, _ binds: [SQLValue] = []) async throws {
        _ = try await query(sql, binds)
    }

    /// The first row of a query, if any.
    package func first(_ sql: String, _ binds: [SQLValue] = []) async throws -> SQLRow? {
        try await query(sql, binds).first
    }
}

/// A store that SQL repositories run on: embedded SQLite or a PostgreSQL server.
///
/// It is a `Service`: `run()` keeps its connections alive until graceful shutdown.
package protocol Database: Service, Sendable {
    /// The engine, for the few statements that differ (`FOR UPDATE`, advisory locks).
    var engine: DatabaseEngine { get }

    /// Runs `body` inside one transaction: committed if it returns, rolled back if it throws.
    /// Returns only once the commit is durable.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T

    /// Runs `body`, which runs exactly one statement, as a transaction of its own. PostgreSQL sends
    /// the statement without `BEGIN` and `COMMIT` (a statement outside a transaction block is one),
    /// saving two exchanges; SQLite runs it in `transaction`. A second statement throws
    /// `DatabaseError.notSingle` before it runs (PostgreSQL has committed the first by then, SQLite
    /// rolls it back). Returns once the commit is durable.
    func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T

    /// Runs `body` on a connection outside any explicit transaction (reads).
    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T

    /// Delivers the payload of every notification on `channel`, from any process on this store,
    /// until cancelled or the connection fails (it throws then; the caller retries). SQLite has one
    /// process per file and no notifications: it only waits for cancellation.
    func listen(channel: String, onNotification: @escaping @Sendable (String) -> Void) async throws

    /// Sends `payload` on `channel` when the transaction of `sql` commits (PostgreSQL `pg_notify`;
    /// nothing on SQLite).
    func notify(channel: String, payload: String, on sql: any SQLExecutor) async throws
}

extension Database {
    /// `transaction`: an engine without exchanges to save has nothing to do differently.
    package func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws
        -> T
    {
        try await transaction { sql in try await body(SingleStatementExecutor(base: sql)) }
    }

    /// Throws unless the store answers a trivial query.
    package func ping() async throws {
        _ = try await read { sql in try await sql.first("SELECT 1 AS one") }
    }

    /// `FOR UPDATE` on PostgreSQL; nothing on SQLite, whose single writer already serializes.
    package var forUpdate: String { engine == .postgres ? " FOR UPDATE" : "" }
}

/// Runs one statement, and refuses a second: a statement sent outside a transaction block commits
/// on its own, so a second would not be part of the first's transaction.
package final class SingleStatementExecutor: SQLExecutor {
    private let base: any SQLExecutor
    private let used = Atomic<Bool>(false)

    package init(base: any SQLExecutor) { self.base = base }

    package var engine: DatabaseEngine { base.engine }

    package func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        guard !used.exchange(true, ordering: .acquiringAndReleasing) else { throw DatabaseError.notSingle }
        return try await base.query(sql, binds)
    }
}
