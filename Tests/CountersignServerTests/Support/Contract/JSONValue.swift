import Foundation

/// A JSON document as the schema validator sees it: booleans and numbers kept apart, integers
/// kept exact (Foundation's JSONSerialization blurs both).
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!)" }.joined(separator: ",") + "}"
        }
    }

    /// The value as a YAML-parsed schema writes it (`const`, `enum`), for comparison.
    func equals(yaml: Any) -> Bool {
        switch (self, yaml) {
        case (.null, is NSNull): true
        case (.bool(let value), let other as Bool): value == other
        case (.integer(let value), let other as Int): value == Int64(other)
        case (.integer(let value), let other as Double): Double(value) == other
        case (.number(let value), let other as Double): value == other
        case (.number(let value), let other as Int): value == Double(other)
        case (.string(let value), let other as String): value == other
        case (.array(let values), let others as [Any]):
            values.count == others.count && zip(values, others).allSatisfy { $0.equals(yaml: $1) }
        case (.object(let members), let others as [String: Any]):
            members.count == others.count
                && members.allSatisfy { key, value in others[key].map { value.equals(yaml: $0) } ?? false }
        default: false
        }
    }
}
