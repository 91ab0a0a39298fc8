import Foundation

/// A JSON value as the fake Stripe writes it: keys exactly as given (metadata included), so the
/// provider's reading is checked against Stripe's spelling, not against a shared key strategy.
enum FakeJSON: Encodable, Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([FakeJSON])
    case object([String: FakeJSON])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: FakeJSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, FakeJSON)...) { self = .object(Dictionary(elements) { _, last in last }) }
    init(nilLiteral: ()) { self = .null }

    /// `value` as a string, or null.
    static func optional(_ value: String?) -> FakeJSON { value.map(FakeJSON.string) ?? .null }

    /// The fields of an object merged with `other`'s.
    func merging(_ other: [String: FakeJSON]) -> FakeJSON {
        guard case .object(let fields) = self else { return self }
        return .object(fields.merging(other) { _, new in new })
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let fields):
            var container = encoder.container(keyedBy: CodingName.self)
            for (key, value) in fields { try container.encode(value, forKey: CodingName(stringValue: key)) }
        }
    }

    /// The encoded document, keys sorted so a replay is byte-for-byte the first answer.
    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map(Array.init) ?? Array("null".utf8)
    }

    private struct CodingName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// An `application/x-www-form-urlencoded` body (or query) as Stripe reads it: `+` is a space,
/// `%XX` an escaped byte, and bracketed keys (`metadata[order_id]`, `payment_method_types[]`) are
/// looked up by their full, decoded name.
struct FakeForm: Sendable, Equatable {
    struct Pair: Sendable, Equatable {
        let key: String
        let value: String
    }

    let pairs: [Pair]

    /// Nil when an escape is malformed.
    init?(encoded: String) {
        var pairs: [Pair] = []
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let key = decode(halves[0]), let value = decode(halves.count > 1 ? halves[1] : "") else { return nil }
            pairs.append(Pair(key: key, value: value))
        }
        self.pairs = pairs
    }

    subscript(_ key: String) -> String? { pairs.last { $0.key == key }?.value }

    /// Every value of a repeated key (`payment_method_types[]`).
    func all(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }

    /// `metadata[k]=v` as `[k: v]`.
    var metadata: [String: String] {
        var metadata: [String: String] = [:]
        for pair in pairs where pair.key.hasPrefix("metadata[") && pair.key.hasSuffix("]") {
            metadata[String(pair.key.dropFirst("metadata[".count).dropLast())] = pair.value
        }
        return metadata
    }

    /// The first key that is neither in `allowed` nor under `metadata[…]`: Stripe answers such a
    /// request with 400 `parameter_unknown`.
    func unknownKey(allowed: Set<String>) -> String? {
        pairs.first { !allowed.contains($0.key) && !($0.key.hasPrefix("metadata[") && $0.key.hasSuffix("]")) }?.key
    }

    /// What an idempotency key is bound to: the parameters, order aside.
    var fingerprint: [String] { pairs.map { $0.key + "=" + $0.value }.sorted() }
}
