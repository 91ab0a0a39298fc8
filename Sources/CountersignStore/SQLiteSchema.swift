/// The schema of a SQLite file as `sqlite_master` lists it: every table, index, trigger and view.
///
/// A restored file becomes the live store, and the ledger audit reads rows, not definitions: a
/// trigger added to a backup (one that sets `users.is_operator` on every new session) would run
/// with the server's rights and pass the audit. So a copy is accepted only when its schema is
/// exactly the one the migrations it records make, which `made(by:)` builds on an empty
/// in-memory database with the same statements.
struct SQLiteSchema {
    /// One row of `sqlite_master`, its SQL normalised; nil SQL for the indexes SQLite makes itself
    /// for PRIMARY KEY and UNIQUE constraints.
    struct Object: Equatable {
        let type: String
        let name: String
        let table: String
        let sql: String?

        var label: String { type == "table" || table == name ? "\(type) \(name)" : "\(type) \(name) on \(table)" }
    }

    /// By `type name`, both lowercased: SQLite's names are case-insensitive.
    let objects: [String: Object]

    init(_ connection: SQLiteConnectionHandle) throws {
        var objects: [String: Object] = [:]
        for row in try connection.query("SELECT type, name, tbl_name, sql FROM sqlite_master", []) {
            let object = Object(
                type: try row.string("type").lowercased(), name: try row.string("name").lowercased(),
                table: try row.string("tbl_name").lowercased(), sql: try row.optionalString("sql").map(Self.normalised))
            objects["\(object.type) \(object.name)"] = object
        }
        self.objects = objects
    }

    /// What `migrations`, applied in order to an empty database, make.
    static func made(by migrations: [Migration]) throws -> SQLiteSchema {
        let connection = try SQLiteConnectionHandle(path: ":memory:")
        defer { connection.close() }
        try connection.execute(Migrator.createSchemaMigrations)
        for migration in migrations {
            for statement in migration.statements { try connection.execute(statement) }
        }
        return try SQLiteSchema(connection)
    }

    /// What this schema has that `expected` does not, what it lacks, and what it defines otherwise.
    func differences(from expected: SQLiteSchema) -> [String] {
        var found: [String] = []
        for key in Set(objects.keys).union(expected.objects.keys).sorted() {
            switch (objects[key], expected.objects[key]) {
            case (let object?, nil): found.append("extra \(object.label)")
            case (nil, let wanted?): found.append("missing \(wanted.label)")
            case (let object?, let wanted?) where object != wanted: found.append("changed \(wanted.label)")
            default: break
            }
        }
        return found
    }

    /// `sql` with its comments dropped, white space folded to one space (none next to punctuation)
    /// and letters lowercased, except inside quotes: definitions that differ only in layout, comments
    /// or the case of keywords and names are the same definition.
    static func normalised(_ sql: String) -> String {
        let characters = Array(sql)
        var result = ""
        var index = 0
        var pendingSpace = false
        func append(_ character: Character) {
            if pendingSpace, let last = result.last, !"(),;".contains(last), !"(),;".contains(character) {
                result.append(" ")
            }
            pendingSpace = false
            result.append(character)
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "'", "\"", "`", "[":
                // A quoted string or name, copied as it is; a doubled quote inside it is one character.
                let close: Character = character == "[" ? "]" : character
                append(character)
                index += 1
                while index < characters.count {
                    result.append(characters[index])
                    index += 1
                    if characters[index - 1] == close {
                        guard close != "]", index < characters.count, characters[index] == close else { break }
                        result.append(close)
                        index += 1
                    }
                }
            case "-" where next == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
                pendingSpace = true
            case "/" where next == "*":
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") {
                    index += 1
                }
                index += 2
                pendingSpace = true
            case _ where character.isWhitespace:
                pendingSpace = true
                index += 1
            default:
                for lowered in character.lowercased() { append(lowered) }
                index += 1
            }
        }
        return result
    }
}
