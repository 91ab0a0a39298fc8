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

    static func escape(_ text: String, keepBrackets: Bool) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "[") where keepBrackets, UInt8(ascii: "]") where keepBrackets:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return escaped
    }
}
