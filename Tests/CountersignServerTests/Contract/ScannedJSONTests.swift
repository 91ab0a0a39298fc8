import CountersignAPI
import Foundation
import Testing

@testable import CountersignServer

/// The request bodies read with the scanner before Foundation's decoder: never a value the decoder
/// would not give.
@Suite("Request bodies read by the scanner")
struct ScannedJSONTests {
    static let assertion =
        #"{"id":"Y3JlZA","rawId":"Y3JlZA","type":"public-key","response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0","#
        + #""authenticatorData":"SZYN5YgO","signature":"MEUCIQ","userHandle":null}}"#
    static let topUps = [
        #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","verificationToken":"a.b.c"}"#,
        #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","assertion":"# + assertion + "}",
        #" { "pin" : "4827", "amount" : -0, "useCashback" : true, "supplierSlug" : null, "assertion" : null ,"#
            + #" "productCode" : "AIRTIME_\u004dTN", "recipientPhone" : "080 1234 5678", "extra" : [1, {"a": null}] } "#,
        #"{"amount":9223372036854775807,"productCode":"é","recipientPhone":"\ud83d\ude00","useCashback":false}"#,
    ]

    /// The value's JSON with sorted keys: equal texts, equal values.
    static func canonical(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try? encoder.encode(value)
    }

    /// `bytes` read by the scanner, and whether the decoder gives the same value (nil if the scanner refused).
    static func agrees<T: ScannedJSON & Codable>(_ type: T.Type, _ bytes: [UInt8]) -> Bool? {
        guard let scanned = T.scanned(bytes) else { return nil }
        guard let decoded = try? JSONDecoder().decode(T.self, from: Data(bytes)) else { return false }
        return canonical(scanned) == canonical(decoded) && canonical(scanned) != nil
    }

    @Test("well-formed bodies are read by the scanner, to the decoder's values")
    func wellFormed() {
        for body in Self.topUps {
            #expect(Self.agrees(TopUpRequest.self, Array(body.utf8)) == true, "\(body)")
        }
        #expect(Self.agrees(AuthenticationResponseJSON.self, Array(Self.assertion.utf8)) == true)
    }

    @Test(
        "what only the decoder may judge is left to it",
        arguments: [
            // A known member twice; a number with a fraction or exponent; out of range; a byte-order mark;
            // a trailing comma (which the decoder takes); a string where a number goes; null for a
            // required member; a missing one; nesting past the scanner's depth.
            #"{"amount":500,"amount":501,"productCode":"A","recipientPhone":"1"}"#,
            #"{"amount":500.0,"productCode":"A","recipientPhone":"1"}"#,
            #"{"amount":5e2,"productCode":"A","recipientPhone":"1"}"#,
            #"{"amount":9223372036854775808,"productCode":"A","recipientPhone":"1"}"#,
            "\u{FEFF}" + #"{"amount":500,"productCode":"A","recipientPhone":"1"}"#,
            #"{"amount":500,"productCode":"A","recipientPhone":"1",}"#,
            #"{"amount":"500","productCode":"A","recipientPhone":"1"}"#,
            #"{"amount":500,"productCode":null,"recipientPhone":"1"}"#,
            #"{"amount":500,"recipientPhone":"1"}"#,
            #"{"amount":500,"productCode":"A","recipientPhone":"1","x":"# + String(repeating: "[", count: 70)
                + String(repeating: "]", count: 70) + "}",
            #"{"amount":500,"productCode":"A","recipientPhone":"1","assertion":{"id":"x"}}"#,
            #"[{"amount":500,"productCode":"A","recipientPhone":"1"}]"#,
        ])
    func leftToTheDecoder(body: String) {
        #expect(TopUpRequest.scanned(Array(body.utf8)) == nil)
    }

    @Test("never a value the decoder would not give, over 20,000 mutations")
    func differential() {
        // xorshift64*, seeded: a disagreement is reproducible.
        var state: UInt64 = 0x5EED_CAFE
        func next() -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 33)
        }
        let alphabet = Array(#"{}[]",:\ tfnrul0123456789.+-Eaxyz/"#.utf8) + [0x0A, 0xC3, 0xA9, 0xFF]
        let bases = Self.topUps.map { Array($0.utf8) }
        var disagreements: [String] = []
        var scanned = 0
        for round in 0..<20_000 {
            var bytes = bases[round % bases.count]
            for _ in 0..<(1 + next() % 3) {
                let position = next() % bytes.count
                let byte = alphabet[next() % alphabet.count]
                switch next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            switch Self.agrees(TopUpRequest.self, bytes) {
            case true?: scanned += 1
            case false?: disagreements.append(String(decoding: bytes, as: UTF8.self))
            case nil: break
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(scanned > 1_000, "mutations should leave many bodies well formed")
    }
}
