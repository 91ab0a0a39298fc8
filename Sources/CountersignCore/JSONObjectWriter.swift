/// A value written straight to JSON bytes as one object, member by member.
package protocol JSONWritable {
    /// Writes the value's members, in the order of their keys.
    func write(to object: inout JSONObjectWriter)
}

extension JSONWritable {
    /// The value's JSON text, strings escaped as `escaping` says.
    package func jsonBytes(escaping: JSONObjectWriter.Escaping) -> [UInt8] {
        var object = JSONObjectWriter(escaping: escaping)
        write(to: &object)
        return object.finish()
    }
}

/// One JSON object written member by member. The caller gives the members sorted by key, byte by
/// byte (as `JSONEncoder` sorts them); keys are plain ASCII names and are not escaped. A nil
/// optional is left out, as the synthesized `Encodable` leaves it out.
package struct JSONObjectWriter {
    /// How strings are escaped.
    package enum Escaping: Sendable {
        /// Only what JSON requires: `"`, `\`, `\n`, `\r`, `\t` and other control characters as
        /// `\u00xx`. The canonical encoding a device's signature covers.
        case minimal
        /// As `JSONEncoder` escapes: `minimal`, and `/` as `\/`, `\b` and `\f`.
        case foundation
    }

    private let escaping: Escaping
    /// The text so far, from its opening `{`.
    private var bytes: [UInt8]
    #if DEBUG
        private var lastKey: StaticString?
    #endif

    /// An object with no members yet.
    package init(escaping: Escaping) {
        self.escaping = escaping
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(256)
    }

    /// Adds `"key":"value"`.
    package mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        Self.appendString(value, to: &bytes, escaping: escaping)
    }

    /// Adds `"key":"value"`, or nothing for nil.
    package mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        string(key, value)
    }

    /// Adds `"key":value` in decimal.
    package mutating func integer(_ key: StaticString, _ value: some BinaryInteger) {
        self.key(key)
        // Through `Int64` where it fits: the generic `String(_:)` looks its integer's types up at run
        // time, called from another module (about a microsecond a value).
        if let value = Int64(exactly: value) {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Adds `"key":value` in decimal, or nothing for nil.
    package mutating func integer(_ key: StaticString, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        integer(key, value)
    }

    /// Adds `"key":true` or `"key":false`, or nothing for nil.
    package mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Adds `"key":{…}`, or nothing for nil.
    package mutating func object(_ key: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: value.jsonBytes(escaping: escaping))
    }

    /// Adds `"key":[{…},…]`.
    package mutating func objects(_ key: StaticString, _ values: [some JSONWritable]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: value.jsonBytes(escaping: escaping))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds `"key":["…",…]`, or nothing for nil.
    package mutating func strings(_ key: StaticString, _ values: [String]?) {
        guard let values else { return }
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(value, to: &bytes, escaping: escaping)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The object's text, closed.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ key: StaticString) {
        #if DEBUG
            if let lastKey {
                assert(
                    lastKey.withUTF8Buffer { last in key.withUTF8Buffer { last.lexicographicallyPrecedes($0) } },
                    "JSON members must be written in the order of their keys: \(key) after \(lastKey)")
            }
            lastKey = key
        #endif
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `text` as a JSON string, escaped byte by byte over its UTF-8 (every byte of a
    /// multi-byte scalar is 0x80 or above, so only single-byte scalars are ever escaped).
    package static func appendString(_ text: String, to bytes: inout [UInt8], escaping: Escaping) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if let short = shortEscape(byte, escaping) {
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(short)
            } else if byte < 0x20 {
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The character after the backslash for what has a short escape, nil for the rest.
    private static func shortEscape(_ byte: UInt8, _ escaping: Escaping) -> UInt8? {
        switch (byte, escaping) {
        case (UInt8(ascii: "\""), _), (UInt8(ascii: "\\"), _), (UInt8(ascii: "/"), .foundation): byte
        case (UInt8(ascii: "\n"), _): UInt8(ascii: "n")
        case (UInt8(ascii: "\r"), _): UInt8(ascii: "r")
        case (UInt8(ascii: "\t"), _): UInt8(ascii: "t")
        case (0x08, .foundation): UInt8(ascii: "b")
        case (0x0C, .foundation): UInt8(ascii: "f")
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
