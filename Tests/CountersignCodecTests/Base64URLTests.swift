import CountersignCodec
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    // RFC 4648 §10 test vectors, unpadded.
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("encodes the RFC 4648 vectors without padding")
    func encodesRFCVectors() {
        for (plain, encoded) in Self.rfc4648 {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("uses the URL-safe alphabet")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test(
        "accepts correct padding, rejects anything else",
        arguments: [
            ("Zm8=", true), ("Zg==", true), ("Zm9v", true),
            ("Zm8+", false), ("Zm/v", false), ("Zm 9v", false), ("Zg=", false), ("Z===", false), ("Zg=a", false),
            ("Z", false), ("Zh", false), ("Zm9=", false), ("é", false),
        ])
    func validation(input: String, valid: Bool) {
        #expect((Base64URL.decode(input) != nil) == valid, "\(input)")
    }

    @Test("round-trips every length up to 70 bytes")
    func roundTrip() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("="))
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }
}
