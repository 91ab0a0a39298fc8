/// A strict RFC 8259 parser for clientDataJSON that keeps only the members a relying party checks.
///
/// Why not JSONDecoder: on the assertion hot path Foundation's decoder costs about a tenth of the P-256
/// verification itself, and it does not validate members it does not decode. This parser still reads real
/// JSON (any member order, escapes such as `\/` and `\u0074`, unknown members of any type, whitespace),
/// rejects anything RFC 8259 rejects, and refuses duplicate checked members, which a decoder would silently
/// resolve one way or the other. The tests compare it with Foundation on mutated inputs.
package enum ClientDataJSONParser {
    /// The checked members, or `nil` when the input is not a JSON object with string type, challenge and origin.
    package static func parse(_ bytes: [UInt8]) -> CollectedClientData? {
        var json = JSONScanner(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { json.index = 3 } // the "UTF-8 decode" of §5.8.1 drops a BOM
        var type: String?
        var challenge: String?
        var origin: String?
        var crossOrigin: Bool?
        var topOrigin: String?
        var payment: CollectedPaymentData?
        var seen: UInt8 = 0 // one bit per checked member: duplicates are refused
        let isObject = json.members { key, json in
            let bit: UInt8 =
                switch key {
                case "type": 1
                case "challenge": 2
                case "origin": 4
                case "crossOrigin": 8
                case "topOrigin": 16
                case "payment": 32
                default: 0
                }
            guard seen & bit == 0 else { return false }
            seen |= bit
            switch key {
            case "type", "challenge", "origin":
                guard let value = json.stringValue() else { return false }
                if key == "type" {
                    type = value
                } else if key == "challenge" {
                    challenge = value
                } else {
                    origin = value
                }
            case "crossOrigin":
                // A boolean, or null for absent, as a decoder of `Bool?` reads it.
                if json.literal("true") {
                    crossOrigin = true
                } else if json.literal("false") {
                    crossOrigin = false
                } else if !json.literal("null") {
                    return false
                }
            case "topOrigin":
                if !json.literal("null") {
                    guard let value = json.stringValue() else { return false }
                    topOrigin = value
                }
            case "payment":
                // Secure Payment Confirmation's member; null reads as absent.
                if !json.literal("null") {
                    guard let value = PaymentMemberParser.parse(&json) else { return false }
                    payment = value
                }
            default:
                return json.skipValue(depth: 1)
            }
            return true
        }
        guard isObject else { return nil }
        json.skipWhitespace()
        guard json.index == bytes.count else { return nil }
        // Non-ASCII bytes can only sit inside strings; check once that they form valid UTF-8.
        if json.sawNonASCII, String(validating: bytes, as: UTF8.self) == nil { return nil }
        guard let type, let challenge, let origin else { return nil }
        return CollectedClientData(
            type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin,
            payment: payment)
    }
}
