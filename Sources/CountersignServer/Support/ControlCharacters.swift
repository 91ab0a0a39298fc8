import CountersignAPI
import Foundation

/// The rule for text clients send: no control characters (Unicode category Cc: U+0000–U+001F,
/// U+007F–U+009F) in any JSON string of a body the endpoint reads (members it does not know are
/// ignored, as the spec allows them) or any query parameter; 400 `invalid_value` naming
/// the field. Every such string is stored or compared as text, and PostgreSQL cannot hold U+0000 at
/// all (it answered 500 where SQLite stored it). Tab and line feed are refused too: no field of
/// the API is multi-line, and a title or address line with a line break in it only misleads
/// whoever reads it. `JSONBody.decode` and `QueryTextMiddleware` apply it, so every endpoint does
/// (a payment provider's signed webhook is no client's text: `PaymentWebhookController`).
enum ControlCharacters {
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }

    /// Whether `text` holds a control character.
    static func appear(in text: some StringProtocol) -> Bool { text.unicodeScalars.contains(where: isControl) }

    /// Refuses a JSON document (one that has parsed) with a control character in one of its
    /// strings, raw or escaped. The scan costs one pass over the bytes; only a refusal parses the
    /// document again, to name the field.
    static func refuse(inJSON body: some Collection<UInt8>) throws(APIError) {
        let bytes = Array(body)
        guard holdsControl(json: bytes) else { return }
        let document = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        switch document.flatMap({ field(in: $0, at: []) }) {
        case .some(let path) where !path.isEmpty:
            throw APIError(.invalidValue, "\(path) must not contain control characters.")
        default:
            throw APIError(.invalidValue, "The body must not contain control characters.")
        }
    }

    /// Whether a parsed JSON document holds a control character: outside strings it has only
    /// structure, numbers and white space, so inside them is wherever a quote was opened.
    static func holdsControl(json bytes: [UInt8]) -> Bool {
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            guard inString else {
                inString = byte == UInt8(ascii: "\"")
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = false
                index += 1
            case UInt8(ascii: "\\"):
                let escaped = index + 1 < bytes.count ? bytes[index + 1] : 0
                switch escaped {
                case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    return true
                case UInt8(ascii: "u"):
                    let digits = bytes.dropFirst(index + 2).prefix(4)
                    if let unit = UInt32(String(decoding: digits, as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(unit), isControl(scalar)
                    {
                        return true
                    }
                    index += 6
                default:
                    index += 2
                }
            case 0..<0x20, 0x7F:
                return true
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                return true // U+0080–U+009F in UTF-8
            default:
                index += 1
            }
        }
        return false
    }

    /// The path (`items.0.name`) of the first string holding a control character, "" for the
    /// document itself, `member name` for a key.
    private static func field(in value: Any, at path: [String]) -> String? {
        switch value {
        case let text as String:
            return appear(in: text) ? path.joined(separator: ".") : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if appear(in: key) { return (path + ["member name"]).joined(separator: ".") }
                if let found = field(in: object[key]!, at: path + [key]) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = field(in: element, at: path + [String(index)]) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
