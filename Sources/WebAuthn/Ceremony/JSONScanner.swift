/// The lexical half of a strict RFC 8259 parser over UTF-8 bytes: whitespace, literals, strings with their
/// escapes, numbers, and skipping whole values. Every method leaves `index` after what it consumed.
package struct JSONScanner {
    static let maximumDepth = 64
    let bytes: [UInt8]
    package var index = 0
    /// Set when a string held bytes above 0x7F; the caller then checks the document is valid UTF-8.
    package private(set) var sawNonASCII = false

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether only whitespace is left.
    package mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// Reads an object at `index` member by member: `member` is given each key with the scanner at
    /// its value, and must consume the value (returning false refuses the document). False for
    /// anything but an object whose every member `member` accepted.
    package mutating func members(_ member: (String, inout JSONScanner) -> Bool) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\""), let key = string(keep: true) else { return false }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard member(key, &self) else { return false }
            skipWhitespace()
            guard let separator = peek() else { return false }
            index += 1
            if separator == UInt8(ascii: "}") { return true }
            guard separator == UInt8(ascii: ",") else { return false }
        }
    }

    /// A JSON number that is an integer in `Int64`'s range (no fraction, no exponent), or nil.
    package mutating func integer() -> Int64? {
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        var value: Int64 = 0
        var count = 0
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            // Accumulated negatively, so Int64.min reads too.
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = next
            count += 1
            index += 1
        }
        // RFC 8259: no leading zeros; a fraction or an exponent is not an integer.
        guard first != UInt8(ascii: "0") || count == 1 else { return nil }
        if let byte = peek(), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        if negative { return value }
        let (positive, overflow) = (0 as Int64).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    package mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
        {
            index += 1
        }
    }

    package mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    package mutating func stringValue() -> String? {
        peek() == UInt8(ascii: "\"") ? string(keep: true) : nil
    }

    /// Reads a string starting at its opening quote; returns its value when `keep`, or "" after validating it.
    package mutating func string(keep: Bool) -> String? {
        index += 1
        let start = index
        var unescaped: [UInt8]? = nil
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = index
                index += 1
                guard keep else { return "" }
                if let unescaped { return String(validating: unescaped, as: UTF8.self) }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            case UInt8(ascii: "\\"):
                if unescaped == nil { unescaped = Array(bytes[start..<index]) }
                guard let scalar = escape() else { return nil }
                UTF8.encode(scalar) { unescaped!.append($0) }
            case 0..<0x20:
                return nil // RFC 8259 §7: control characters must be escaped
            default:
                if byte >= 0x80 { sawNonASCII = true }
                unescaped?.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// Reads one escape sequence at a backslash; surrogates must pair up.
    private mutating func escape() -> Unicode.Scalar? {
        guard bytes.count - index >= 2 else { return nil }
        let code = bytes[index + 1]
        index += 2
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(code)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if unit & 0xFC00 == 0xD800 {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), low & 0xFC00 == 0xDC00 else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit) // nil for a lone low surrogate
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Skips any JSON value, validating it; nesting is bounded.
    package mutating func skipValue(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, let byte = peek() else { return false }
        switch byte {
        case UInt8(ascii: "\""): return string(keep: false) != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipWhitespace()
            if peek() == close {
                index += 1
                return true
            }
            while true {
                skipWhitespace()
                if isObject {
                    guard peek() == UInt8(ascii: "\""), string(keep: false) != nil else { return false }
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else { return false }
                    index += 1
                    skipWhitespace()
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipWhitespace()
                guard let separator = peek() else { return false }
                index += 1
                if separator == close { return true }
                guard separator == UInt8(ascii: ",") else { return false }
            }
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() -> Bool {
        func digits() -> Int {
            let start = index
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }
}
