import CountersignClient
import Testing

@Suite("Local PIN verifier")
struct LocalPINVerifierTests {
    @Test("the set PIN matches and nothing else does")
    func matches() {
        let verifier = LocalPINVerifier(pin: "482910", iterations: 10)
        #expect(verifier.matches("482910"))
        #expect(!verifier.matches("482911"))
        #expect(!verifier.matches("48291"))
        #expect(!verifier.matches(""))
    }

    @Test("the stored form round-trips and does not contain the PIN")
    func storedForm() throws {
        let verifier = LocalPINVerifier(pin: "482910", iterations: 10)
        #expect(verifier.encoded.hasPrefix("pbkdf2-sha256$10$"))
        #expect(!verifier.encoded.contains("482910"))
        let restored = try LocalPINVerifier(encoded: verifier.encoded)
        #expect(restored == verifier)
        #expect(restored.matches("482910"))
    }

    @Test("a hash stored before this build still verifies (computed with Python's hashlib.pbkdf2_hmac)")
    func storedEarlier() throws {
        let stored = try LocalPINVerifier(
            encoded: "pbkdf2-sha256$1000$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU")
        #expect(stored.matches("2468"))
        #expect(!stored.matches("2469"))
    }

    @Test("the same PIN set twice gets different salts")
    func salted() {
        #expect(
            LocalPINVerifier(pin: "1234", iterations: 10).encoded
                != LocalPINVerifier(pin: "1234", iterations: 10).encoded)
    }

    @Test(
        "a malformed stored form is refused",
        arguments: [
            "", "1234", "pbkdf2-sha256$10$c2FsdA", "sha1$10$c2FsdA$AAAA",
            "pbkdf2-sha256$0$c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "pbkdf2-sha256$10$c2FsdA$AAAA", "pbkdf2-sha256$ten$c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ])
    func malformed(_ encoded: String) {
        #expect(throws: LocalPINVerifier.Malformed.notAPINHash) { try LocalPINVerifier(encoded: encoded) }
    }
}
