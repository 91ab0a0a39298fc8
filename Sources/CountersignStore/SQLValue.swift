/// A value bound into or read out of SQL. Countersign stores only integers and text (binary as
/// base64url text, times as epoch milliseconds) so that one schema means the same on every engine.
package enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case null
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue {
    /// An optional string as text or NULL.
    package static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// A Bool as 0 or 1.
    package static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// An Int as a 64-bit integer.
    package static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}

/// The column names of a statement's rows, and where each is: made once per statement (SQLite) or
/// result (PostgreSQL) and shared by its rows, so a row is an array of values and no name is hashed
/// until it is looked up.
package final class SQLColumns: Sendable {
    package let names: [String]
    private let positions: [String: Int]

    /// A name given twice (`SELECT a.id, b.id`) is found at its last position.
    package init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = Dictionary(minimumCapacity: names.count)
        for (index, name) in names.enumerated() { positions[name] = index }
        self.positions = positions
    }

    package func position(of name: String) -> Int? { positions[name] }
}

/// One result row, by column name.
package struct SQLRow: Sendable {
    package let columns: SQLColumns
    /// In the order of `columns.names`; nil for a value of a type Countersign does not store (REAL, BLOB).
    package let cells: [SQLValue?]

    package init(columns: SQLColumns, cells: [SQLValue?]) {
        precondition(columns.names.count == cells.count, "a row has a value for each column")
        self.columns = columns
        self.cells = cells
    }

    /// The value in `column`; nil if the row has no such column.
    package subscript(column: String) -> SQLValue? {
        columns.position(of: column).flatMap { cells[$0] }
    }

    /// The integer in `column`; throws if it is missing or not an integer.
    package func int(_ column: String) throws -> Int64 {
        guard case .integer(let value) = self[column] else { throw DatabaseError.decoding(column: column) }
        return value
    }

    /// The text in `column`; throws if it is missing or not text.
    package func string(_ column: String) throws -> String {
        guard case .text(let value) = self[column] else { throw DatabaseError.decoding(column: column) }
        return value
    }

    /// The integer in `column`, or nil for NULL.
    package func optionalInt(_ column: String) throws -> Int64? {
        switch self[column] {
        case .integer(let value): value
        case .null: nil
        default: throw DatabaseError.decoding(column: column)
        }
    }

    /// The text in `column`, or nil for NULL.
    package func optionalString(_ column: String) throws -> String? {
        switch self[column] {
        case .text(let value): value
        case .null: nil
        default: throw DatabaseError.decoding(column: column)
        }
    }

    /// The integer in `column` read as a Bool (non-zero is true).
    package func bool(_ column: String) throws -> Bool { try int(column) != 0 }
}

/// A failure of the storage layer itself. Repositories turn expected conflicts into domain errors;
/// whatever reaches a handler as a `DatabaseError` is a 500.
package enum DatabaseError: Error, CustomStringConvertible {
    case decoding(column: String)
    case constraintViolation(String)
    case configuration(String)
    case engine(String)
    /// A second statement in `Database.single`.
    case notSingle

    package var description: String {
        switch self {
        case .decoding(let column): "column \(column) missing or of the wrong type"
        case .constraintViolation(let detail): "constraint violated: \(detail)"
        case .configuration(let detail): "database configuration: \(detail)"
        case .engine(let detail): detail
        case .notSingle: "a second statement where one was promised (Database.single)"
        }
    }
}
