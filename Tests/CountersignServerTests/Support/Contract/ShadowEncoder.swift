import Foundation

/// Encodes a value into the JSON tree `JSONEncoder` writes for it, except that a nil optional
/// member (`encodeIfPresent(nil, forKey:)`, which the synthesized `encode(to:)` calls for every
/// optional) comes out as an explicit null instead of being left out. So the tree shows every member
/// a response type declares, set or not, and `ResponseContract` can hold openapi.yaml to the type
/// rather than to the members a test happens to set. Dates come out as `AppResponseEncoder` writes
/// them (ISO 8601), `Data` as base64, `URL` as its string.
enum ShadowEncoder {
    static func tree(of value: some Encodable) throws -> JSONValue {
        let node = Node()
        try node.fill(with: value, at: [])
        return node.json
    }

    /// One value of the tree as it is being written: a scalar, or an object or array whose members
    /// are still open to containers (`JSONEncoder` too lets several containers write into one object).
    fileprivate final class Node {
        var scalar: JSONValue?
        var members: [String: Node]?
        var items: [Node]?

        init(_ scalar: JSONValue? = nil) {
            self.scalar = scalar
        }

        /// An encoder that writes nothing is `{}` to `JSONEncoder`.
        var json: JSONValue {
            if let scalar { return scalar }
            if let items { return .array(items.map(\.json)) }
            return .object((members ?? [:]).mapValues(\.json))
        }

        func fill(with value: some Encodable, at path: [any CodingKey]) throws {
            switch value {
            case let date as Date: scalar = .string(date.formatted(.iso8601))
            case let data as Data: scalar = .string(data.base64EncodedString())
            case let url as URL: scalar = .string(url.absoluteString)
            case let decimal as Decimal: scalar = number(NSDecimalNumber(decimal: decimal).doubleValue)
            default: try value.encode(to: TreeEncoder(node: self, codingPath: path))
            }
        }

        /// The member `key`, made when absent; the same node when a second container asks again.
        func member(_ key: String) -> Node {
            if members == nil { members = [:] }
            if let existing = members![key] { return existing }
            let node = Node()
            members![key] = node
            return node
        }

        func append() -> Node {
            let node = Node()
            items = (items ?? []) + [node]
            return node
        }
    }

    fileprivate struct TreeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [:] }
            return KeyedEncodingContainer(KeyedTree<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.items == nil { node.items = [] }
            return UnkeyedTree(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleTree(node: node, codingPath: codingPath)
        }
    }

    /// The base class's key when `superEncoder()` is given none, as `JSONEncoder` names it.
    fileprivate struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    fileprivate struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    fileprivate struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func put(_ value: JSONValue, _ key: Key) {
            node.member(key.stringValue).scalar = value
        }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(number(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(number(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(integer(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(integer(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(integer(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(integer(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(integer(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.member(key.stringValue).fill(with: value, at: codingPath + [key])
        }

        // The point of this encoder: a nil optional is an explicit null, not a missing member.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOrNull(value, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            try encodeOrNull(value, key)
        }

        private mutating func encodeOrNull<T: Encodable>(_ value: T?, _ key: Key) throws {
            guard let value else { return put(.null, key) }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(
                keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            TreeEncoder(node: node.member(SuperKey().stringValue), codingPath: codingPath + [SuperKey()])
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }
    }

    fileprivate struct UnkeyedTree: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.items?.count ?? 0 }

        private func nextPath() -> [any CodingKey] { codingPath + [IndexKey(count)] }

        mutating func encodeNil() throws { node.append().scalar = .null }
        mutating func encode(_ value: Bool) throws { node.append().scalar = .bool(value) }
        mutating func encode(_ value: String) throws { node.append().scalar = .string(value) }
        mutating func encode(_ value: Double) throws { node.append().scalar = number(value) }
        mutating func encode(_ value: Float) throws { node.append().scalar = number(Double(value)) }
        mutating func encode(_ value: Int) throws { node.append().scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) throws { node.append().scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) throws { node.append().scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) throws { node.append().scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) throws { node.append().scalar = .integer(value) }
        mutating func encode(_ value: UInt) throws { node.append().scalar = integer(value) }
        mutating func encode(_ value: UInt8) throws { node.append().scalar = integer(value) }
        mutating func encode(_ value: UInt16) throws { node.append().scalar = integer(value) }
        mutating func encode(_ value: UInt32) throws { node.append().scalar = integer(value) }
        mutating func encode(_ value: UInt64) throws { node.append().scalar = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = nextPath()
            try node.append().fill(with: value, at: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let path = nextPath()
            return TreeEncoder(node: node.append(), codingPath: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextPath()
            return TreeEncoder(node: node.append(), codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let path = nextPath()
            return TreeEncoder(node: node.append(), codingPath: path)
        }
    }

    fileprivate struct SingleTree: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.scalar = .null }
        mutating func encode(_ value: Bool) throws { node.scalar = .bool(value) }
        mutating func encode(_ value: String) throws { node.scalar = .string(value) }
        mutating func encode(_ value: Double) throws { node.scalar = number(value) }
        mutating func encode(_ value: Float) throws { node.scalar = number(Double(value)) }
        mutating func encode(_ value: Int) throws { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) throws { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) throws { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) throws { node.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) throws { node.scalar = .integer(value) }
        mutating func encode(_ value: UInt) throws { node.scalar = integer(value) }
        mutating func encode(_ value: UInt8) throws { node.scalar = integer(value) }
        mutating func encode(_ value: UInt16) throws { node.scalar = integer(value) }
        mutating func encode(_ value: UInt32) throws { node.scalar = integer(value) }
        mutating func encode(_ value: UInt64) throws { node.scalar = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try node.fill(with: value, at: codingPath)
        }
    }
}

/// An unsigned integer as `JSONValue` holds it: exact while it fits `Int64`.
private func integer(_ value: some UnsignedInteger) -> JSONValue {
    Int64(exactly: value).map(JSONValue.integer) ?? number(Double(value))
}

/// A floating-point number as `JSONValue` decodes `JSONEncoder`'s text of it: a whole one is an integer.
private func number(_ value: Double) -> JSONValue {
    value.rounded() == value ? Int64(exactly: value).map(JSONValue.integer) ?? .number(value) : .number(value)
}
