import Hummingbird

/// A query string read as a browser's form or `URLSearchParams` writes it: `+` is a space, and
/// `%2B` a plus. (`Request.uri.queryParameters` keeps `+` as it is, so `recipientPhone=+234 …`
/// written by a browser would arrive with its spaces turned into pluses.) The first value of a
/// name wins.
package struct FormQuery: Sendable {
    let values: [String: String]

    package init(_ request: Request) {
        var values: [String: String] = [:]
        // 64 names is far more than any route reads; the rest are ignored.
        for pair in (request.uri.query ?? "").split(separator: "&").prefix(64) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
        self.values = values
    }

    package subscript(name: String) -> String? { values[name] }

    /// `text` with `+` as a space and its `%XX` escapes decoded; nil for an escape that is not two
    /// hex digits or bytes that are not UTF-8 (what Foundation's `removingPercentEncoding` refuses).
    /// Byte by byte rather than through Foundation, whose string bridging cost a query of four
    /// parameters about 50 µs (perf, `countersign-bench flows`).
    static func decode(_ text: Substring) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hex digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
