import CountersignAPI
import Foundation

/// A Stripe request body: `application/x-www-form-urlencoded` with Stripe's bracket notation for
/// nested parameters (`metadata[order_id]=…`, `payment_method_data[billing_details][name]=…`) and
/// arrays (`payment_method_types[]=card`). Fields keep the order they were added in.
package struct StripeForm: Sendable, Equatable {
    package struct Field: Sendable, Equatable {
        package let key: String
        package let value: String
    }

    package private(set) var fields: [Field] = []

    package init() {}

    /// Sets the parameter at `path` (`["metadata", "order_id"]` → `metadata[order_id]`); nil adds nothing.
    package subscript(_ path: String...) -> String? {
        get { fields.first { $0.key == Self.key(path) }?.value }
        set {
            let key = Self.key(path)
            fields.removeAll { $0.key == key }
            if let newValue { fields.append(Field(key: key, value: newValue)) }
        }
    }

    /// Appends one element to the array parameter at `path` (`payment_method_types[]=card`).
    package mutating func append(_ value: String, to path: String...) {
        fields.append(Field(key: Self.key(path) + "[]", value: value))
    }

    /// The encoded body (or query string). Brackets in keys stay literal, as in Stripe's own
    /// documentation and libraries; everything but RFC 3986's unreserved characters is escaped.
    package var encoded: String {
        fields.map { Self.escape($0.key, keepBrackets: true) + "=" + Self.escape($0.value, keepBrackets: false) }
            .joined(separator: "&")
    }

    static func key(_ path: [String]) -> String {
        guard let first = path.first else { return "" }
        return first + path.dropFirst().map { "[\($0)]" }.joined()
    }

    /// `text` percent-encoded as the SDK encodes path segments (RFC 3986's unreserved characters
    /// stay), with `[` and `]` put back when `keepBrackets`: Stripe's keys carry them literally.
    static func escape(_ text: String, keepBrackets: Bool) -> String {
        let escaped = Endpoint.percentEncoded(text)
        guard keepBrackets else { return escaped }
        return escaped.replacingOccurrences(of: "%5B", with: "[").replacingOccurrences(of: "%5D", with: "]")
    }
}
