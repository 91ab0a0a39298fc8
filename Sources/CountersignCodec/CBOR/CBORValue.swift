/// One decoded CBOR data item (RFC 8949), as far as WebAuthn needs: no indefinite lengths.
package indirect enum CBORValue: Sendable, Equatable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n`, stored as `n` so that the whole range fits.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, in encoded order (keys are unique).
    case map([CBORPair])
    /// Major type 6: a tagged item.
    case tagged(UInt64, CBORValue)
    /// Major type 7: `false` / `true`.
    case bool(Bool)
    /// Major type 7: `null`.
    case null
    /// Major type 7: `undefined`.
    case undefined
    /// Major type 7: any other simple value.
    case simple(UInt8)
    /// Major type 7: a half, single or double precision float.
    case float(Double)

    /// A signed integer item; non-negative values become `.unsigned`.
    package static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The value as an `Int64` when it is an integer that fits.
    package var intValue: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    /// The bytes of a byte string.
    package var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The string of a text string.
    package var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements of an array.
    package var arrayValue: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The entries of a map.
    package var mapValue: [CBORPair]? {
        if case .map(let pairs) = self { return pairs }
        return nil
    }

    /// Looks up a map entry by integer key (COSE labels).
    package subscript(int key: Int64) -> CBORValue? {
        mapValue?.first(where: { $0.key.intValue == key })?.value
    }

    /// Looks up a map entry by text key (attestation objects and statements).
    package subscript(text key: String) -> CBORValue? {
        mapValue?.first(where: { $0.key.textValue == key })?.value
    }
}

/// One key/value entry of a CBOR map.
package struct CBORPair: Sendable, Equatable {
    /// The entry's key.
    package var key: CBORValue
    /// The entry's value.
    package var value: CBORValue

    /// Creates an entry.
    package init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
