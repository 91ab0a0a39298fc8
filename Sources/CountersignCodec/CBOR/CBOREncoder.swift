/// A minimal CBOR encoder (RFC 8949): integers, byte and text strings, arrays, maps, tags and simple values,
/// always in the shortest form. Map entries are written in the order given, so callers control the order.
package enum CBOREncoder {
    /// Encodes one item.
    package static func encode(_ value: CBORValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    /// Appends the encoding of `value` to `output`.
    package static func append(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, &output)
        case .negative(let n): head(1, n, &output)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), &output)
            output += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), &output)
            output += text.utf8
        case .array(let items):
            head(4, UInt64(items.count), &output)
            for item in items { append(item, to: &output) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), &output)
            for pair in pairs {
                append(pair.key, to: &output)
                append(pair.value, to: &output)
            }
        case .tagged(let tag, let item):
            head(6, tag, &output)
            append(item, to: &output)
        case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        case .undefined: output.append(0xF7)
        case .simple(let value):
            if value < 24 { output.append(0xE0 | value) } else { output += [0xF8, value] }
        case .float(let double):
            output.append(0xFB)
            withUnsafeBytes(of: double.bitPattern.bigEndian) { output += $0 }
        }
    }

    /// The initial byte and argument of an item in the shortest form (RFC 8949 §4.2.1).
    private static func head(_ major: UInt8, _ argument: UInt64, _ output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF:
            output.append(type | 25)
            appendBigEndian(UInt16(argument), &output)
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            appendBigEndian(UInt32(argument), &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, &output)
        }
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, _ output: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { output += $0 }
    }
}
