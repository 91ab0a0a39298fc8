/// A small parser for database URLs, `scheme://user:password@host:port/path?key=value`, that
/// percent-decodes the user and password. (Foundation's URLComponents is avoided on purpose so the
/// server core does not need Foundation networking.)
struct URLComponentsLite {
    var scheme: String
    var user: String?
    var password: String?
    var host: String?
    var port: Int?
    var path: String
    var query: [String: String]

    init?(_ text: String) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        scheme = String(text[..<schemeEnd.lowerBound]).lowercased()
        var rest = Substring(text[schemeEnd.upperBound...])
        query = [:]
        if let questionMark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: questionMark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            rest = rest[..<questionMark]
        }
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
        } else {
            path = ""
        }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = Self.percentDecoded(parts[0])
            password = parts.count > 1 ? Self.percentDecoded(parts[1]) : nil
        }
        if let colon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
            host = String(rest[..<colon])
        } else {
            host = String(rest)
        }
    }

    static func percentDecoded<Text: StringProtocol>(_ text: Text) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
