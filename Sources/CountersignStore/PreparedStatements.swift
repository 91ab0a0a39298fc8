import PostgresNIO
import Synchronization

/// Runs a statement as a named prepared statement, so that PostgreSQL parses and plans it once per
/// connection instead of on every call (parse and plan were most of PostgreSQL's CPU per flow).
///
/// PostgresNIO's `PostgresPreparedStatement` takes its name, SQL and parameter types from the
/// *type*, while our SQL is a value. `DynamicStatement` bridges the two: its static properties read
/// a task-local that `run` sets around the call. This relies on PostgresNIO reading them while the
/// call is being made (it builds its request from them before the first suspension); if a future
/// version read them later, every statement would go out with empty SQL and fail at once, loudly.
enum PreparedStatements {
    /// The name in use for each statement (parameter types and SQL), and the number of the next name.
    private static let names = Mutex<(byKey: [String: String], next: Int)>(([:], 0))

    /// Statements PostgreSQL can prepare: the rest (DDL, `SET`, `LISTEN`) run unnamed.
    static func isPreparable(_ sql: String) -> Bool {
        let head = sql.utf8.drop { $0 == 32 || $0 == 10 || $0 == 9 }.prefix(6)
        let word = String(decoding: head, as: UTF8.self).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(word) || word.hasPrefix("WITH ")
    }

    /// The name for `sql` with these parameter types: `cs_<n>`, numbered in order of first use in
    /// this process, so two statements never share a name.
    static func name(sql: String, types: [PostgresDataType]) -> String {
        let key = key(sql: sql, types: types)
        return names.withLock { state in
            if let name = state.byKey[key] { return name }
            let name = "cs_\(state.next)"
            state.next += 1
            state.byKey[key] = name
            return name
        }
    }

    /// Stops using the current name for `sql`: the next call prepares it again under a new one.
    ///
    /// Needed because PostgresNIO remembers a failed preparation per connection and fails every
    /// later use of that name there; a preparation sent inside an already-aborted transaction
    /// (SQLSTATE 25P02) would otherwise poison the name until the connection closes.
    static func retire(sql: String, types: [PostgresDataType]) {
        let key = key(sql: sql, types: types)
        names.withLock { state in state.byKey[key] = nil }
    }

    private static func key(sql: String, types: [PostgresDataType]) -> String {
        types.map { String($0.rawValue) }.joined(separator: ",") + "|" + sql
    }

    /// Runs `sql` prepared under `name` on `connection` and returns its rows.
    static func run(
        _ sql: String, name: String, types: [PostgresDataType], bindings: PostgresBindings,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        try await DynamicStatement.$current.withValue(.init(name: name, sql: sql, types: types)) {
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(DynamicStatement(bindings: bindings), logger: logger) {
                rows.append(row)
            }
            return rows
        }
    }
}

/// A prepared statement whose name and SQL come from the task-local `current` (see `PreparedStatements`).
private struct DynamicStatement: PostgresPreparedStatement {
    struct Current: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
    }

    @TaskLocal static var current = Current(name: "", sql: "", types: [])
    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
