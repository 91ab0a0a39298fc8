import CSQLite
import CSQLiteWAL

/// One connection to the SQLite file, through SQLite's C API (the system library, module CSQLite).
///
/// Statements run synchronously on the calling thread: a statement touches pages in memory and
/// takes microseconds, far less than a hop to a thread pool and back. The writer's steps that can
/// block for long, `BEGIN IMMEDIATE` (another process may hold the write lock) and `COMMIT` (waits
/// for `fsync`), run on the writer's own thread (see `SQLiteDatabase`).
///
/// Not thread-safe by itself: exactly one caller uses a handle at a time (the writer's lock or the
/// reader pool guarantees it), so it opens in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`):
/// no mutex around every call. Compiled statements are kept per SQL text and reused.
final class SQLiteConnectionHandle: @unchecked Sendable {
    private var raw: OpaquePointer?
    private var statements: [String: CompiledStatement] = [:]
    /// Statement texts are static in this codebase; the bound only guards against a caller that
    /// builds SQL dynamically (each distinct text would otherwise stay compiled forever).
    private static let maximumCachedStatements = 256
    /// How long a statement waits for another process's lock before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5000

    private struct CompiledStatement {
        let pointer: OpaquePointer
        let columns: SQLColumns
    }

    /// `sqlite3_initialize` once per process, before the first open: concurrent first opens race on
    /// SQLite's global configuration otherwise. Memory statistics off first: with them on (the
    /// system library's default), every SQLite allocation and free took a global mutex, about 30 µs
    /// of a payment's server CPU (perf, `countersign-bench flows`).
    ///
    /// Then the VFS that writes each commit's WAL frames with one call (`CSQLiteWAL`): SQLite writes
    /// a frame's header and its page with a call each, about 66 a payment, each a system call on the
    /// writer's thread. Where it cannot be registered, connections use the default VFS.
    private static let vfsName: String? = {
        _ = countersign_sqlite3_config_memstatus(0)
        _ = sqlite3_initialize()
        return countersign_wal_vfs_register() == SQLITE_OK ? COUNTERSIGN_WAL_VFS_NAME : nil
    }()

    /// Opens (creating if needed) the database file at `path`.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &handle, flags, Self.vfsName)
        guard status == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "status \(status)"
            sqlite3_close_v2(handle)
            throw DatabaseError.engine("cannot open the SQLite database at \(path): \(message)")
        }
        raw = handle
        setBusyTimeout(Self.busyTimeoutMilliseconds)
        // The planner's stability guarantee: plans never depend on bound values, so a statement
        // compiled once is not compiled again when a value changes. Newer SQLite marks a statement
        // for that as soon as its planner looked at a `column = $N` term's value; with SQLite 3.54
        // (and `sqlite3_clear_bindings`) three statements of every request were compiled again, and
        // the server used 17% more CPU per payment (docs/benchmarks.md).
        _ = countersign_sqlite3_enable_qpsg(handle)
    }

    deinit { close() }

    /// How long the next statements wait on another process's lock.
    private func setBusyTimeout(_ milliseconds: Int32) {
        guard let raw else { return }
        _ = sqlite3_busy_timeout(raw, milliseconds)
    }

    /// Runs one statement, written with `$N` placeholders, and returns its rows. REAL and BLOB
    /// values are left out of the row (the schema has none), so reading one fails as a decoding error.
    func query(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        let statement = try compiled(sql)
        let pointer = statement.pointer
        // Reset only, not `sqlite3_clear_bindings`: that marks a statement whose plan looked at a
        // bound value as expired, and SQLite compiles it again on its next step. Every parameter is
        // bound again on each run instead (checked here), so no value is left over from the last.
        defer { sqlite3_reset(pointer) }
        guard binds.count == Int(sqlite3_bind_parameter_count(pointer)) else {
            throw DatabaseError.engine(
                "the statement takes \(sqlite3_bind_parameter_count(pointer)) values, \(binds.count) given: \(sql)")
        }
        for (index, bind) in binds.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch bind {
            case .integer(let value):
                status = sqlite3_bind_int64(pointer, position, value)
            case .text(let value):
                status = sqlite3_bind_text64(
                    pointer, position, value, UInt64(value.utf8.count), sqliteTransient, UInt8(SQLITE_UTF8)
                )
            case .null:
                status = sqlite3_bind_null(pointer, position)
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [SQLRow] = []
        while true {
            let status = sqlite3_step(pointer)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status) }
            var cells: [SQLValue?] = []
            cells.reserveCapacity(statement.columns.names.count)
            for index in statement.columns.names.indices {
                let column = Int32(index)
                switch sqlite3_column_type(pointer, column) {
                case SQLITE_INTEGER:
                    cells.append(.integer(sqlite3_column_int64(pointer, column)))
                case SQLITE_TEXT:
                    // column_text before column_bytes: the byte count is of the text form.
                    let text = sqlite3_column_text(pointer, column)
                    let count = Int(sqlite3_column_bytes(pointer, column))
                    cells.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
                case SQLITE_NULL:
                    cells.append(.null)
                default:
                    cells.append(nil)
                }
            }
            rows.append(SQLRow(columns: statement.columns, cells: cells))
        }
    }

    /// Runs one statement for its effect.
    func execute(_ sql: String) throws {
        _ = try query(sql, [])
    }

    /// Finalizes every statement and closes the connection; later calls fail with an engine error.
    func close() {
        guard let raw else { return }
        for statement in statements.values { sqlite3_finalize(statement.pointer) }
        statements = [:]
        sqlite3_close_v2(raw)
        self.raw = nil
    }

    private func compiled(_ sql: String) throws -> CompiledStatement {
        if let cached = statements[sql] { return cached }
        guard let raw else { throw DatabaseError.engine("the SQLite connection is closed") }
        if statements.count >= Self.maximumCachedStatements {
            for statement in statements.values { sqlite3_finalize(statement.pointer) }
            statements = [:]
        }
        var pointer: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let text = sql.replacingDollarPlaceholders()
        let status = text.withCString { start in
            let status = sqlite3_prepare_v3(raw, start, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, &tail)
            // Only one statement per call: SQLite would silently ignore the rest.
            if status == SQLITE_OK, let tail, !String(cString: tail).allSatisfy({ $0 == ";" || $0.isWhitespace }) {
                return SQLITE_MISUSE
            }
            return status
        }
        guard status == SQLITE_OK, let pointer else {
            if let pointer { sqlite3_finalize(pointer) }
            if status == SQLITE_MISUSE { throw DatabaseError.engine("one SQL statement per call: \(sql)") }
            throw failure(status == SQLITE_OK ? SQLITE_MISUSE : status)
        }
        let columns = SQLColumns(
            (0..<sqlite3_column_count(pointer)).map { index in
                sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? ""
            })
        let statement = CompiledStatement(pointer: pointer, columns: columns)
        statements[sql] = statement
        return statement
    }

    /// How many times SQLite compiled `sql` again since it was first compiled here (0 if it never
    /// ran): after a schema change, or when its plan depended on a bound value.
    func recompilations(of sql: String) -> Int {
        guard let statement = statements[sql] else { return 0 }
        return Int(sqlite3_stmt_status(statement.pointer, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    /// The error for a failed call: constraint violations apart, since repositories turn them into
    /// domain refusals (a duplicate key, a failed CHECK).
    private func failure(_ status: Int32) -> DatabaseError {
        let message = raw.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite status \(status)"
        if status & 0xFF == SQLITE_CONSTRAINT { return .constraintViolation(message) }
        return .engine(message)
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
