import CountersignCodec

/// A strict, non-trapping CBOR decoder for definite-length items (RFC 8949 §3).
///
/// Every length is checked against the bytes that remain before anything is allocated; input size,
/// nesting, and the entries of each map and array are bounded to what WebAuthn needs, so the work per
/// byte is constant; text must be valid UTF-8. Hostile input ends in `malformedCBOR`.
package struct CBORDecoder {
    /// Deepest nesting accepted. COSE keys and attestation objects need 4; 16 leaves room.
    package static let maximumDepth = 16
    /// Most entries in one map. The largest WebAuthn maps (a TPM attStmt, an RSA COSE_Key) have 6;
    /// extension outputs a handful more.
    package static let maximumMapEntries = 64
    /// Most items in one array. WebAuthn's arrays are x5c chains of a few certificates.
    package static let maximumArrayItems = 64
    /// Largest input accepted, in bytes. An ML-DSA-87 registration (2.6 KB key, 4.6 KB signature) with a
    /// few certificates stays well below it.
    package static let maximumInputSize = 65_536

    private let bytes: [UInt8]
    private var position: Int

    private init(_ bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Decodes exactly one item that spans all of `bytes`.
    package static func decode(_ bytes: [UInt8]) throws(WebAuthnError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, at: 0)
        guard end == bytes.count else { throw failure("\(bytes.count - end) trailing bytes after the CBOR item") }
        return value
    }

    /// Decodes one item starting at `offset`; returns it and the offset just past it.
    package static func decodePrefix(_ bytes: [UInt8], at offset: Int) throws(WebAuthnError) -> (CBORValue, Int) {
        guard bytes.count <= maximumInputSize else {
            throw failure("\(bytes.count) bytes, at most \(maximumInputSize) accepted")
        }
        guard offset >= 0, offset <= bytes.count else { throw failure("offset out of range") }
        var decoder = CBORDecoder(bytes, position: offset)
        let value = try decoder.item(depth: 0)
        return (value, decoder.position)
    }

    private static func failure(_ reason: String) -> WebAuthnError {
        WebAuthnError(.malformedCBOR, reason)
    }

    private mutating func byte() throws(WebAuthnError) -> UInt8 {
        guard position < bytes.count else { throw Self.failure("truncated: expected a byte at offset \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ count: UInt64) throws(WebAuthnError) -> ArraySlice<UInt8> {
        // RFC 8949 §10: check declared lengths against the input before allocating.
        guard count <= UInt64(bytes.count - position) else {
            throw Self.failure("truncated: \(count) bytes declared, \(bytes.count - position) remain")
        }
        let end = position + Int(count)
        defer { position = end }
        return bytes[position..<end]
    }

    /// The argument of an initial byte (RFC 8949 §3: additional information 0–27).
    private mutating func argument(_ info: UInt8) throws(WebAuthnError) -> UInt64 {
        switch info {
        case 0...23: return UInt64(info)
        case 24...27:
            var value: UInt64 = 0
            for byte in try take(1 << UInt64(info - 24)) { value = value << 8 | UInt64(byte) }
            return value
        case 31: throw Self.failure("indefinite-length items are not supported")
        default: throw Self.failure("reserved additional information \(info)")
        }
    }

    private mutating func item(depth: Int) throws(WebAuthnError) -> CBORValue {
        guard depth <= Self.maximumDepth else { throw Self.failure("nesting deeper than \(Self.maximumDepth)") }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try simpleOrFloat(info) }
        let argument = try argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try take(argument)))
        case 3:
            let utf8 = try take(argument)
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw Self.failure("text is not valid UTF-8")
            }
            return .text(text)
        case 4:
            guard argument <= UInt64(Self.maximumArrayItems) else {
                throw Self.failure("array of \(argument) items, at most \(Self.maximumArrayItems) accepted")
            }
            // Each element takes at least one byte, so a count above what remains is malformed.
            guard argument <= UInt64(bytes.count - position) else {
                throw Self.failure("array of \(argument) items is truncated")
            }
            var items: [CBORValue] = []
            items.reserveCapacity(Int(argument))
            for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard argument <= UInt64(Self.maximumMapEntries) else {
                throw Self.failure("map of \(argument) entries, at most \(Self.maximumMapEntries) accepted")
            }
            guard argument <= UInt64(bytes.count - position) / 2 else {
                throw Self.failure("map of \(argument) entries is truncated")
            }
            var pairs: [CBORPair] = []
            pairs.reserveCapacity(Int(argument))
            // RFC 8949 §5.6: keys are compared as data items, so compare their shortest-form encodings
            // (`01` and `18 01` are the same key); a hash set keeps this linear in the map's size.
            var keys = Set<[UInt8]>(minimumCapacity: Int(argument))
            for _ in 0..<argument {
                let key = try item(depth: depth + 1)
                guard keys.insert(CBOREncoder.encode(key)).inserted else { throw Self.failure("duplicate map key") }
                pairs.append(CBORPair(key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            return .tagged(argument, try item(depth: depth + 1))
        }
    }

    private mutating func simpleOrFloat(_ info: UInt8) throws(WebAuthnError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let value = try byte()
            // RFC 8949 §3.3: two-byte encodings of simple values below 32 are not well-formed.
            guard value >= 32 else { throw Self.failure("simple value \(value) in two-byte form") }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try argument(info))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try argument(info)))))
        case 27: return .float(Double(bitPattern: try argument(info)))
        case 0..<20: return .simple(info)
        default: throw Self.failure("reserved or indefinite major type 7 item \(info)")
        }
    }

    /// IEEE 754 half precision to Double (RFC 8949 Appendix D).
    private static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
