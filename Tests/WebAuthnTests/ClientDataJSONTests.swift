import Foundation
import Testing
import WebAuthn

/// The clientDataJSON parser against Foundation's JSON parsers, on hand-picked and on mutated inputs.
@Suite("clientDataJSON parsing")
struct ClientDataJSONTests {
    static let bases = [
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.org","crossOrigin":false}"#,
        #"{ "origin" : "https:\/\/example.org" , "challenge":"AAEC", "type":"webauthn.create", "extra":[1, -2.5e+3, true, null, {"a":{}}] }"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"android:apk-key-hash:abc","topOrigin":null,"crossOrigin":null,"n":0.1}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://ex\u0061mple.org","note":"caf\u00e9 \ud83d\ude00 ü \"q\" \\ \t"}"#,
        "\u{FEFF}{\"type\":\"webauthn.get\",\"challenge\":\"AAEC\",\"origin\":\"https://example.org\",\"topOrigin\":\"https://top.example\",\"crossOrigin\":true}",
    ]

    /// Foundation's verdict: JSONSerialization for the validity of the whole document (JSONDecoder does not look
    /// inside members it does not decode), JSONDecoder for the members' values and types.
    static func reference(_ bytes: [UInt8]) -> CollectedClientData? {
        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else { return nil }
        return try? JSONDecoder().decode(CollectedClientData.self, from: Data(bytes))
    }

    static func same(_ a: CollectedClientData, _ b: CollectedClientData) -> Bool {
        a.type == b.type && a.challenge == b.challenge && a.origin == b.origin && a.crossOrigin == b.crossOrigin
            && a.topOrigin == b.topOrigin
    }

    @Test("agrees with JSONDecoder on well-formed inputs")
    func wellFormed() throws {
        for base in Self.bases {
            let bytes = Array(base.utf8)
            let ours = try CollectedClientData(json: bytes)
            if !base.hasPrefix("\u{FEFF}") {
                let theirs = try #require(Self.reference(bytes), "\(base)")
                #expect(Self.same(ours, theirs), "\(base)")
            }
        }
        let unicode = try CollectedClientData(json: Array(Self.bases[3].utf8))
        #expect(unicode.origin == "https://example.org")
        let legacy = try CollectedClientData(json: Array(Self.bases[1].utf8))
        #expect(legacy.origin == "https://example.org" && legacy.type == "webauthn.create" && legacy.crossOrigin == nil)
    }

    @Test(
        "refuses what RFC 8259 or the member types forbid",
        arguments: [
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o""#, // unterminated
            #"{"type":"webauthn.get","challenge":"AAEC"}"#, // no origin
            #"{"type":1,"challenge":"AAEC","origin":"o"}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","crossOrigin":1}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","crossOrigin":"true"}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o",}"#, // trailing comma
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o"} x"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","n":01}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","n":1.}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","s":"\x"}"#,
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","s":"\ud800"}"#, // lone surrogate
            // duplicate checked member
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"o","type":"webauthn.create"}"#,
            "{\"type\":\"webauthn.get\",\"challenge\":\"AAEC\",\"origin\":\"o\u{01}\"}", // raw control character
            #"["type","webauthn.get"]"#,
            String(repeating: "[", count: 100),
        ])
    func refusals(json: String) {
        #expect(ClientDataJSONParser.parse(Array(json.utf8)) == nil, "\(json)")
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() {
        var bytes = Array(#"{"type":"webauthn.get","challenge":"AAEC","origin":"o","x":"??"}"#.utf8)
        bytes[bytes.count - 4] = 0xC3
        bytes[bytes.count - 3] = 0x28
        #expect(ClientDataJSONParser.parse(bytes) == nil)
    }

    @Test("accepts exactly what Foundation accepts, and reads the same members, over 20,000 mutations")
    func differential() {
        // Foundation on Linux and Darwin agree on these; the seed makes any disagreement reproducible.
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]",:\ tfnrue0123456789.+-Eaxyz/"#.utf8) + [0x0A, 0xC3, 0xA9]
        var disagreements: [String] = []
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = Array(Self.bases[round % 4].utf8)
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            let ours = ClientDataJSONParser.parse(bytes)
            let theirs = Self.reference(bytes)
            if ours != nil { accepted += 1 }
            let text = String(decoding: bytes, as: UTF8.self)
            switch (ours, theirs) {
            case (let ours?, let theirs?) where !Self.same(ours, theirs):
                disagreements.append("different members: \(text)")
            case (_?, nil): disagreements.append("accepted what Foundation refuses: \(text)")
            case (nil, _?) where !Self.hasDuplicateCheckedMember(text) && !Self.hasTrailingComma(text):
                disagreements.append("refused what Foundation accepts: \(text)")
            default: break
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(accepted > 100, "mutations should leave some inputs valid")
    }

    /// Foundation tolerates `,}` and `,]`; RFC 8259 does not, and neither does the parser.
    static func hasTrailingComma(_ text: String) -> Bool {
        text.range(of: #",\s*[}\]]"#, options: .regularExpression) != nil
    }

    /// The parser refuses duplicate checked members; Foundation keeps one of them.
    static func hasDuplicateCheckedMember(_ text: String) -> Bool {
        ["type", "challenge", "origin", "crossOrigin", "topOrigin"].contains {
            text.components(separatedBy: "\"\($0)\"").count > 2
        }
    }
}

/// A small deterministic generator, so that a failing mutation reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
