import CountersignClient
import CountersignCore
import Foundation

/// How the terminal writes money, times, cards and errors: as the web app shows them.
enum Formatting {
    /// `minor` units as `₦1,234.50` or `€80.00`.
    static func money(_ minor: Int64, _ currency: String) -> String {
        Currency.named(currency).format(minor)
    }

    /// A server time (ISO 8601, UTC) in the user's time zone (`TZ`, else the machine's), as
    /// `26 Nov 2026, 09:15 WAT`; text that is not such a time is shown as it came.
    static func time(_ iso: String, in zone: TimeZone = .current) -> String {
        guard let date = parse(iso) else { return iso }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "d MMM yyyy, HH:mm:ss zzz"
        return formatter.string(from: date)
    }

    /// A card brand as the card itself writes it: `visa` as Visa, `mastercard` as Mastercard.
    static func brand(_ brand: String) -> String {
        switch brand.lowercased() {
        case "visa": "Visa"
        case "mastercard": "Mastercard"
        case "amex": "American Express"
        case "discover": "Discover"
        case "diners": "Diners Club"
        case "jcb": "JCB"
        case "unionpay": "UnionPay"
        case "unknown", "": "Card"
        default: brand.prefix(1).uppercased() + brand.dropFirst()
        }
    }

    private static func parse(_ iso: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: iso) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: iso)
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
