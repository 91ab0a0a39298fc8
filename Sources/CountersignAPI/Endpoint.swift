/// One operation of the HTTP API: its method and its path template, written once. The server's
/// router registers it, the SDK builds its request paths from it, and the tests compare the
/// router's table with openapi.yaml.
///
/// A template segment `{name}` is a parameter, in the syntax openapi.yaml and Hummingbird's router
/// both read, so the template goes to either unchanged.
///
/// To add an operation: a constant beside its feature's types, `on(_:use:)` in its controller, and
/// the operation in openapi.yaml. OpenAPITests fails until the router and the document agree, and
/// every response the tests provoke is checked against the document.
package struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP methods the API uses.
    package enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    package let method: Method
    /// The path, `{name}` segments its parameters.
    package let template: String

    package init(_ method: Method, _ template: String) {
        self.method = method
        self.template = template
    }

    package var description: String { "\(method.rawValue) \(template)" }

    /// The path with each `{parameter}` replaced, in order, by the matching value percent-encoded,
    /// then `query` (nil values left out) as `?name=value&…`, names and values percent-encoded.
    /// The number of values must match the template's parameters.
    package func path(_ parameters: [String] = [], query: [(String, String?)] = []) -> String {
        var values = parameters.makeIterator()
        let segments = template.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return String(segment) }
            guard let value = values.next() else { preconditionFailure("\(self): a value for \(segment) is missing") }
            return Self.percentEncoded(value)
        }
        precondition(values.next() == nil, "\(self): more values than parameters")
        let pairs = query.compactMap { name, value in
            value.map { Self.percentEncoded(name) + "=" + Self.percentEncoded($0) }
        }
        return segments.joined(separator: "/") + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// `value` with every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) written
    /// `%XX`, so it stays one path segment or one query value whatever it holds.
    package static func percentEncoded(_ value: String) -> String {
        func isUnreserved(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
        // Most values (ids, amounts, product codes) need nothing: no copy for them.
        if value.utf8.allSatisfy(isUnreserved) { return value }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
