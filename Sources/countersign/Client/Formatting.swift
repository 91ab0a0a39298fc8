import CountersignClient
import CountersignCore

/// How the terminal writes money and errors.
enum Formatting {
    /// `minor` units as `NGN 1,234.50`.
    static func money(_ minor: Int64, _ currency: String) -> String {
        let digits = Currency.known[currency]?.minorUnitDigits ?? 2
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let magnitude = minor.magnitude
        let whole = String(magnitude / UInt64(scale))
        var grouped = ""
        for (index, character) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let fraction = String(magnitude % UInt64(scale))
        let padded = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        return "\(currency) \(minor < 0 ? "-" : "")\(grouped)\(digits > 0 ? "." + padded : "")"
    }

    /// A server refusal as `code: message`, with its reference (the trace id) when the server gave
    /// one; anything else as it describes itself.
    static func error(_ error: any Error) -> String {
        switch CountersignClientError(error) {
        case .api(let status, let code, let message, let retryAfter, let traceId):
            return "\(code): \(message) (HTTP \(status)\(retryAfter.map { ", retry after \($0) s" } ?? ""))"
                + (traceId.map { " reference \($0)" } ?? "")
        case .transport(let text):
            return "no answer from the server: \(text)"
        case .decoding(let text):
            return "unexpected answer: \(text)"
        }
    }
}
