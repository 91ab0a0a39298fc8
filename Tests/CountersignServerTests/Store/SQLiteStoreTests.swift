import Foundation
import Testing

@testable import CountersignServer
@testable import CountersignStore

/// The embedded engine's own behaviour: statements compiled once and reused, values round-tripped
/// exactly, one statement per call, another process's write lock waited for, and a closed store
/// that refuses work instead of crashing.
@Suite("SQLite store")
struct SQLiteStoreTests {
    /// A fresh file-backed store in its own directory, removed afterwards.
    static func withStore<T: Sendable>(_ body: @Sendable (SQLiteDatabase, String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: TestDatabase.logger)
        do {
            try await database.transaction { sql in
                try await sql.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, amount BIGINT)")
            }
            let result = try await body(database, path)
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }

    /// One connection of its own to a fresh file, closed and removed afterwards.
    static func withHandle(_ body: (SQLiteConnectionHandle) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let handle = try SQLiteConnectionHandle(path: directory.appendingPathComponent("store.sqlite").path)
        defer { handle.close() }
        try body(handle)
    }

    @Test("one compiled statement serves every bind; text, extreme integers and NULL come back exactly")
    func roundTrip() async throws {
        try await Self.withStore { database, _ in
            let rows: [(String, String?, Int64?)] = [
                ("a", "naïve ₦500 — 'quoted' \"and\" emoji 💳", Int64.max),
                ("b", nil, Int64.min),
                ("c", "", nil),
                ("d", "$1 is not a placeholder inside a literal's value", 0),
            ]
            try await database.transaction { sql in
                for (id, body, amount) in rows {
                    try await sql.execute(
                        "INSERT INTO notes (id, body, amount) VALUES ($1, $2, $3)",
                        [.text(id), .text(body), amount.map { .integer($0) } ?? .null]
                    )
                }
            }
            for (id, body, amount) in rows {
                let row = try #require(
                    try await database.read { sql in
                        try await sql.first("SELECT body, amount FROM notes WHERE id = $1", [.text(id)])
                    })
                #expect(try row.optionalString("body") == body)
                #expect(try row.optionalInt("amount") == amount)
            }
            // A literal containing `$` is left alone by the placeholder rewrite.
            let literal = try #require(try await database.read { sql in try await sql.first("SELECT '$1' AS text") })
            #expect(try literal.string("text") == "$1")
        }
    }

    @Test("two statements in one call are refused before either runs")
    func oneStatementPerCall() async throws {
        try await Self.withStore { database, _ in
            await #expect(throws: DatabaseError.self) {
                try await database.transaction { sql in
                    try await sql.execute("INSERT INTO notes (id) VALUES ('x'); INSERT INTO notes (id) VALUES ('y')")
                }
            }
            let count = try await database.read { sql in
                try await sql.first("SELECT COUNT(*) AS n FROM notes")?.int("n")
            }
            #expect(count == 0)
            // A trailing semicolon is one statement.
            try await database.transaction { sql in try await sql.execute("INSERT INTO notes (id) VALUES ('z');") }
            #expect(
                try await database.read { sql in try await sql.first("SELECT COUNT(*) AS n FROM notes")?.int("n") } == 1
            )
        }
    }

    @Test("a unique key violation is a constraint violation, and the batch's other transactions commit")
    func constraintInBatch() async throws {
        try await Self.withStore { database, _ in
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                // Every even transaction reuses the key "dup": only one of them can win.
                                let id = index.isMultiple(of: 2) ? "dup" : "n\(index)"
                                try await sql.execute(
                                    "INSERT INTO notes (id, amount) VALUES ($1, $2)", [.text(id), .int(index)])
                            }
                            return true
                        } catch DatabaseError.constraintViolation {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 11)
            let count = try await database.read { sql in
                try await sql.first("SELECT COUNT(*) AS n FROM notes")?.int("n")
            }
            #expect(count == 11)
        }
    }

    @Test("a transaction waits for another connection's write lock (the operator CLI) instead of failing")
    func waitsForAnotherWriter() async throws {
        try await Self.withStore { database, path in
            let other = try await SQLiteDatabase.open(path: path, logger: TestDatabase.logger)
            let holding = AsyncStream.makeStream(of: Void.self)
            async let otherWrite: Void = other.transaction { sql in
                try await sql.execute("INSERT INTO notes (id) VALUES ('other')")
                holding.continuation.yield()
                // Hold the write lock for a while: the store's BEGIN IMMEDIATE must wait it out.
                try await Task.sleep(for: .milliseconds(300))
            }
            var signal = holding.stream.makeAsyncIterator()
            await signal.next()
            try await database.transaction { sql in try await sql.execute("INSERT INTO notes (id) VALUES ('ours')") }
            try await otherWrite
            try await other.close()
            let ids = try await database.read { sql in
                try await sql.query("SELECT id FROM notes ORDER BY id", []).map { try $0.string("id") }
            }
            #expect(ids == ["other", "ours"])
        }
    }

    @Test("the WAL is copied back into the database file past its own mark, not SQLite's 1,000 pages")
    func checkpointMark() async throws {
        try await Self.withStore { database, path in
            // About 1,800 pages in 30 commits: past SQLite's default mark, short of the store's.
            let body = String(repeating: "x", count: 3_000)
            for batch in 0..<30 {
                try await database.transaction { sql in
                    for row in 0..<60 {
                        try await sql.execute(
                            "INSERT INTO notes (id, body) VALUES ($1, $2)", [.text("n\(batch)-\(row)"), .text(body)])
                    }
                }
            }
            let other = try SQLiteConnectionHandle(path: path)
            defer { other.close() }
            // With SQLite's default, a commit past 1,000 pages would have copied the WAL back and the
            // next one started it again, leaving well under 1,500 pages in it.
            let wal = try #require(try other.query("PRAGMA wal_checkpoint(PASSIVE)", []).first)
            #expect(try wal.int("log") >= 1_500)
            #expect(try wal.int("log") < Int64(SQLiteDatabase.walCheckpointPages))
        }
    }

    @Test("a commit's WAL frames reach the file in a few write calls, not two a frame")
    func walWritesGathered() async throws {
        try await Self.withStore { database, _ in
            let body = String(repeating: "w", count: 3_000)
            let before = SQLiteDatabase.walWrites
            // About 60 pages: SQLite asks for two writes a frame. Counts are per process, and other
            // tests' commits are gathered too, so the share is what can be checked.
            try await database.transaction { sql in
                for row in 0..<60 {
                    try await sql.execute(
                        "INSERT INTO notes (id, body) VALUES ($1, $2)", [.text("g\(row)"), .text(body)])
                }
            }
            let after = SQLiteDatabase.walWrites
            let (requested, made) = (after.requested - before.requested, after.made - before.made)
            #expect(requested >= 120, "\(requested) writes asked for")
            #expect(made * 4 <= requested, "\(made) write calls for \(requested) writes asked for")
        }
    }

    @Test("gathered WAL writes: every commit seen at once by a reader and after reopening, the file intact")
    func walWritesDurable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let body = String(repeating: "d", count: 3_000)
        let database = try await SQLiteDatabase.open(path: path, logger: TestDatabase.logger)
        try await database.transaction { sql in
            try await sql.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, amount BIGINT)")
        }
        // Commits of one row, then one of about 1.5 MB (many times the VFS's 120 KiB buffer), then a
        // rolled-back one; the big one also updates rows it wrote itself.
        for round in 0..<20 {
            try await database.transaction { sql in
                try await sql.execute(
                    "INSERT INTO notes (id, body, amount) VALUES ($1, $2, 1)", [.text("s\(round)"), .text(body)])
            }
            let seen = try await database.read { sql in try await sql.first("SELECT count(*) AS n FROM notes") }
            #expect(try seen?.int("n") == Int64(round + 1))
        }
        try await database.transaction { sql in
            for row in 0..<500 {
                try await sql.execute(
                    "INSERT INTO notes (id, body, amount) VALUES ($1, $2, 2)", [.text("b\(row)"), .text(body)])
            }
            try await sql.execute("UPDATE notes SET amount = 3 WHERE id LIKE 'b1%'")
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await database.transaction { sql in
                try await sql.execute("INSERT INTO notes (id, body, amount) VALUES ('gone', $1, 9)", [.text(body)])
                throw Refused()
            }
        }
        let totals = try await database.read { sql in
            try await sql.first("SELECT count(*) AS n, sum(amount) AS total, sum(length(body)) AS bytes FROM notes")
        }
        // 20 + 500 rows; amounts 20 × 1, 389 × 2 and the 111 ids b1… set to 3.
        #expect(try totals?.int("n") == 520)
        #expect(try totals?.int("total") == 20 + 389 * 2 + 111 * 3)
        #expect(try totals?.int("bytes") == 520 * 3_000)
        // A connection of its own reads the frames from the WAL file (the store still open), then one
        // after the close, which copied the WAL back into the database file.
        for closing in [false, true] {
            if closing { try await database.close() }
            let other = try SQLiteConnectionHandle(path: path)
            defer { other.close() }
            #expect(try other.query("PRAGMA integrity_check", []).first?.string("integrity_check") == "ok")
            let again = try #require(try other.query("SELECT count(*) AS n, sum(amount) AS total FROM notes", []).first)
            #expect(try again.int("n") == 520 && again.int("total") == 20 + 389 * 2 + 111 * 3)
        }
    }

    @Test("gathered WAL writes reach the file at each commit's end even without a sync (synchronous=NORMAL)")
    func walWritesWithoutSync() throws {
        try Self.withHandle { writer in
            try writer.execute("PRAGMA journal_mode=WAL")
            try writer.execute("PRAGMA synchronous=NORMAL")
            try writer.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT)")
            let path = try #require(try writer.query("PRAGMA database_list", []).first?.string("file"))
            let body = String(repeating: "n", count: 3_000)
            for round in 1...5 {
                try writer.execute("BEGIN")
                for row in 0..<20 {
                    _ = try writer.query(
                        "INSERT INTO notes (id, body) VALUES ($1, $2)", [.text("r\(round)-\(row)"), .text(body)])
                }
                try writer.execute("COMMIT")
                // No sync ran: the commit is in the WAL file only if the VFS wrote it at the commit's end.
                let reader = try SQLiteConnectionHandle(path: path)
                defer { reader.close() }
                let seen = try #require(
                    try reader.query("SELECT count(*) AS n, sum(length(body)) AS bytes FROM notes", []).first)
                #expect(try seen.int("n") == Int64(round * 20) && seen.int("bytes") == Int64(round * 20 * 3_000))
            }
        }
    }

    @Test("a closed store refuses reads and transactions with an error")
    func closed() async throws {
        try await Self.withStore { database, _ in
            try await database.close()
            await #expect(throws: DatabaseError.self) {
                try await database.read { sql in try await sql.execute("SELECT 1") }
            }
            await #expect(throws: DatabaseError.self) {
                try await database.transaction { sql in try await sql.execute("INSERT INTO notes (id) VALUES ('late')")
                }
            }
        }
    }

    @Test("a compiled statement runs again with other values without being compiled again")
    func noRecompilation() throws {
        try Self.withHandle { handle in
            try handle.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, owner TEXT, amount BIGINT)")
            try handle.execute("CREATE INDEX notes_owner ON notes (owner)")
            for index in 0..<20 {
                _ = try handle.query(
                    "INSERT INTO notes (id, owner, amount) VALUES ($1, $2, $3)",
                    [.text("n\(index)"), .text("owner\(index % 3)"), .integer(Int64(index % 2))])
            }
            // A bound LIMIT, equality terms whose values (0 and 1 among them) the planner could look at,
            // and a bound GLOB pattern on an indexed column: the kinds of statement SQLite otherwise
            // compiles again when a value changes (the pattern one with every SQLite version).
            let statements = [
                "SELECT id FROM notes WHERE owner = $1 AND amount = $2 ORDER BY id LIMIT $3",
                "SELECT count(*) AS n FROM notes WHERE amount = $1 AND id <> $2",
                "SELECT id FROM notes WHERE id GLOB $1",
            ]
            var counts: [Int] = []
            for round in 0..<6 {
                let owner = SQLValue.text("owner\(round % 3)")
                let amount = SQLValue.integer(Int64([0, 1, 7, -1, 1, 0][round]))
                let limit = SQLValue.integer(Int64([1, 5, 0, 2, 100, 3][round]))
                counts.append(try handle.query(statements[0], [owner, amount, limit]).count)
                _ = try handle.query(statements[1], [amount, .text("n\(round)")])
                counts.append(try handle.query(statements[2], [.text("n1\(round)*")]).count)
            }
            #expect(counts == [1, 1, 4, 1, 0, 1, 0, 1, 4, 1, 3, 1])
            for sql in statements { #expect(handle.recompilations(of: sql) == 0, "\(sql)") }
        }
    }

    @Test("a statement given fewer or more values than it takes is refused, not run with old ones")
    func bindCount() throws {
        try Self.withHandle { handle in
            let sql = "SELECT $1 AS a, $2 AS b"
            let row = try #require(try handle.query(sql, [.text("x"), .integer(2)]).first)
            #expect(try row.string("a") == "x")
            #expect(throws: DatabaseError.self) { try handle.query(sql, [.text("y")]) }
            #expect(throws: DatabaseError.self) { try handle.query(sql, [.text("y"), .null, .null]) }
            let again = try #require(try handle.query(sql, [.null, .text("z")]).first)
            #expect(try again.optionalString("a") == nil)
            #expect(try again.string("b") == "z")
        }
    }
}
