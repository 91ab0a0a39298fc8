import CountersignClient
import Testing

@Suite("PBKDF2-HMAC-SHA256")
struct PBKDF2Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let salt: String
        let iterations: Int
        let hex: String
        var testDescription: String { "\(password)/\(salt)/\(iterations)/\(hex.count / 2) bytes" }
    }

    // RFC 7914 §11 and the RFC 6070-style SHA-256 vectors (cross-checked with Python's hashlib).
    static let vectors = [
        Vector(
            password: "password", salt: "salt", iterations: 1,
            hex: "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        Vector(
            password: "password", salt: "salt", iterations: 4096,
            hex: "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
        Vector(
            password: "passwd", salt: "salt", iterations: 1,
            hex:
                "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        ),
        Vector(
            password: "passwordPASSWORDpassword", salt: "saltSALTsaltSALTsaltSALTsaltSALTsalt", iterations: 4096,
            hex: "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1c635518c7dac47e9"),
    ]

    @Test("matches the published vectors, including multi-block and truncated outputs", arguments: vectors)
    func publishedVectors(_ vector: Vector) {
        let derived = PBKDF2.sha256(
            password: Array(vector.password.utf8), salt: Array(vector.salt.utf8), iterations: vector.iterations,
            keyByteCount: vector.hex.count / 2)
        #expect(derived.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == vector.hex)
    }

    @Test("the shipped floor is at least 100,000 rounds")
    func floor() {
        #expect(PBKDF2.minimumIterations >= 100_000)
        #expect(FileDeviceKeyStore(directory: "/nonexistent").iterations >= PBKDF2.minimumIterations)
        #expect(LocalPINVerifier(pin: "1234", iterations: 1).iterations == 1)
    }
}
