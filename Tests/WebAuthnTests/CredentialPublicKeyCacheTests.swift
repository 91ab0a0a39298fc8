import CountersignCodec
import Crypto
import Testing
import WebAuthn

@Suite("Credential public key cache")
struct CredentialPublicKeyCacheTests {
    /// A fresh P-256 key, its stored form (base64url of the COSE_Key), and a signature over the message.
    static func stored() throws -> (text: String, signature: [UInt8]) {
        let key = P256.Signing.PrivateKey()
        let cose = CredentialPublicKeyTests.ec2(-7, crv: 1, point: key.publicKey.x963Representation)
        let signature = try key.signature(for: CredentialPublicKeyTests.message).derRepresentation
        return (Base64URL.encode(cose), Array(signature))
    }

    @Test("a stored key decodes once and then comes from the cache, and verifies as the decoded one does")
    func decodesOnce() throws {
        let cache = CredentialPublicKeyCache()
        let (text, signature) = try Self.stored()
        let first = try cache.key(stored: text)
        let second = try cache.key(stored: text)
        #expect(cache.count == 1)
        CredentialPublicKeyTests.expectVerifies(first, signature)
        CredentialPublicKeyTests.expectVerifies(second, signature)
        // Another key is another entry: one key never answers for another.
        let (other, otherSignature) = try Self.stored()
        let otherKey = try cache.key(stored: other)
        #expect(cache.count == 2)
        #expect(!otherKey.verify(signature: signature, over: CredentialPublicKeyTests.message))
        CredentialPublicKeyTests.expectVerifies(otherKey, otherSignature)
    }

    @Test("a key that does not decode throws as the decoder does and is not kept")
    func refusesMalformed() throws {
        let cache = CredentialPublicKeyCache()
        for text in ["", "not base64url!", Base64URL.encode([0xA0])] {
            #expect(throws: WebAuthnError.self) { try cache.key(stored: text) }
        }
        #expect(cache.count == 0)
    }

    @Test("at capacity it empties and starts again, so it never holds more than its capacity")
    func bounded() throws {
        let cache = CredentialPublicKeyCache(capacity: 3)
        for _ in 0..<7 {
            _ = try cache.key(stored: try Self.stored().text)
            #expect(cache.count <= 3)
        }
        #expect(cache.count == 1)
    }
}
