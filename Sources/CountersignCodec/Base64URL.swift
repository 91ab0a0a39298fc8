/// Base64url (RFC 4648 §5) without padding: the encoding of every binary WebAuthn field.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The 6-bit value of each ASCII byte, or 0xFF when the byte is not in the base64url alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` as base64url without `=` padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url. Trailing `=` padding is tolerated when it is correct;
    /// any other character, a dangling single character, or non-zero leftover bits give `nil`.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        decode(utf8: Array(string.utf8))
    }

    /// `decode` of a `String`, the verifier's hot path: a concrete overload, so a caller in another
    /// module calls it directly instead of through the generic one's unspecialized witnesses.
    public static func decode(_ string: String) -> [UInt8]? {
        decode(utf8: Array(string.utf8))
    }

    /// `decode` over the text's UTF-8 bytes.
    private static func decode(utf8: [UInt8]) -> [UInt8]? {
        var input = utf8
        if input.count % 4 == 0, let firstPad = input.firstIndex(of: UInt8(ascii: "=")) {
            let padding = input.count - firstPad
            guard padding <= 2, input[firstPad...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
            input.removeLast(padding)
        }
        // A remainder of one character cannot carry a whole byte.
        guard input.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Canonical encodings leave zero bits behind the last byte.
        guard accumulator == 0 else { return nil }
        return output
    }
}
