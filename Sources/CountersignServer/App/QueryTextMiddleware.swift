import Hummingbird

/// Refuses a request whose query string carries a control character in a parameter's name or
/// value, percent-encoded (`%00`, `%0A`, `%C2%85`): 400 `invalid_value` naming the parameter,
/// before any route reads it, however it reads it (`FormQuery`, `Request.uri.queryParameters`).
/// See `ControlCharacters` for the rule and why.
struct QueryTextMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Plain ASCII queries, nearly all of them, need no decoding to be seen clean.
        if let query = request.uri.query,
            query.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x7F || $0 < 0x20 })
        {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.percentDecoded(parts[0])
                if ControlCharacters.appear(in: name) {
                    throw APIError(.invalidValue, "A query parameter's name must not contain control characters.")
                }
                if parts.count > 1, ControlCharacters.appear(in: Self.percentDecoded(parts[1])) {
                    throw APIError(.invalidValue, "\(name) must not contain control characters.")
                }
            }
        }
        return try await next(request, context)
    }

    /// `text` with its `%XX` escapes decoded as UTF-8 (a malformed escape kept as it is, invalid
    /// UTF-8 as U+FFFD): what any reader of the query could make of it.
    static func percentDecoded(_ text: Substring) -> String {
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                let high = FormQuery.hexValue(input[index + 1]),
                let low = FormQuery.hexValue(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
