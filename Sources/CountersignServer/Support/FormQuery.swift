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

    static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
