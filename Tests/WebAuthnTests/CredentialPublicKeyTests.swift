import CountersignCodec
import Crypto
import CryptoExtras
import Foundation
import Testing
import WebAuthn

@Suite("COSE credential public keys")
struct CredentialPublicKeyTests {
    static let message = Array("authenticatorData || clientDataHash".utf8)

    static func ec2(_ alg: Int64, crv: Int64, point: Data) -> [UInt8] {
        let size = (point.count - 1) / 2
        return CBOREncoder.encode(
            .map([
                CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(alg)), CBORPair(.int(-1), .int(crv)),
                CBORPair(.int(-2), .bytes(Array(point[1...size]))),
                CBORPair(.int(-3), .bytes(Array(point[(size + 1)...]))),
            ]))
    }

    static func okp(_ alg: Int64, crv: Int64, x: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(
            .map([
                CBORPair(.int(1), .int(1)), CBORPair(.int(3), .int(alg)), CBORPair(.int(-1), .int(crv)),
                CBORPair(.int(-2), .bytes(x)),
            ]))
    }

    static func rsa(_ alg: Int64, _ key: _RSA.Signing.PublicKey) throws -> [UInt8] {
        let primitives = try key.getKeyPrimitives()
        return CBOREncoder.encode(
            .map([
                CBORPair(.int(1), .int(3)), CBORPair(.int(3), .int(alg)),
                CBORPair(.int(-1), .bytes(Array(primitives.modulus))),
                CBORPair(.int(-2), .bytes(Array(primitives.publicExponent))),
            ]))
    }

    /// Verifies a genuine signature, then checks that a changed message and a changed signature fail.
    static func expectVerifies(_ key: CredentialPublicKey, _ signature: [UInt8], _ message: [UInt8] = message) {
        #expect(key.verify(signature: signature, over: message))
        #expect(!key.verify(signature: signature, over: message + [0]))
        var flipped = signature
        flipped[flipped.count / 2] ^= 0x01
        #expect(!key.verify(signature: flipped, over: message))
        #expect(!key.verify(signature: [], over: message))
    }

    @Test("ECDSA: ES256, ES384, ES512 and fully specified ESP256 with DER signatures")
    func ecdsa() throws {
        let p256 = P256.Signing.PrivateKey()
        for alg: Int64 in [-7, -9] {
            let key = try CredentialPublicKey(cose: Self.ec2(alg, crv: 1, point: p256.publicKey.x963Representation))
            Self.expectVerifies(key, Array(try p256.signature(for: Self.message).derRepresentation))
            // WebAuthn signatures are DER; raw r || s is refused.
            #expect(!key.verify(signature: try p256.signature(for: Self.message).rawRepresentation, over: Self.message))
        }
        let p384 = P384.Signing.PrivateKey()
        let key384 = try CredentialPublicKey(cose: Self.ec2(-35, crv: 2, point: p384.publicKey.x963Representation))
        #expect(key384.algorithm == .es384)
        Self.expectVerifies(key384, Array(try p384.signature(for: Self.message).derRepresentation))
        let p521 = P521.Signing.PrivateKey()
        let key521 = try CredentialPublicKey(cose: Self.ec2(-36, crv: 3, point: p521.publicKey.x963Representation))
        #expect(key521.algorithm == .es512)
        Self.expectVerifies(key521, Array(try p521.signature(for: Self.message).derRepresentation))
    }

    @Test("EdDSA with Ed25519 (alg -8 and -19)")
    func ed25519() throws {
        let signer = Curve25519.Signing.PrivateKey()
        for alg: Int64 in [-8, -19] {
            let key = try CredentialPublicKey(cose: Self.okp(alg, crv: 6, x: Array(signer.publicKey.rawRepresentation)))
            Self.expectVerifies(key, Array(try signer.signature(for: Self.message)))
        }
    }

    @Test("RSA: RS256 with PKCS#1 v1.5 and PS256 with PSS")
    func rsa() throws {
        let signer = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rs256 = try CredentialPublicKey(cose: try Self.rsa(-257, signer.publicKey))
        Self.expectVerifies(
            rs256,
            Array(
                try signer.signature(for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5)
                    .rawRepresentation))
        let ps256 = try CredentialPublicKey(cose: try Self.rsa(-37, signer.publicKey))
        Self.expectVerifies(
            ps256, Array(try signer.signature(for: SHA256.hash(data: Self.message), padding: .PSS).rawRepresentation))
        // The padding is fixed by alg: a PSS signature does not pass as RS256.
        #expect(
            !rs256.verify(
                signature: Array(
                    try signer.signature(for: SHA256.hash(data: Self.message), padding: .PSS).rawRepresentation),
                over: Self.message))
    }

    @Test(
        "refuses keys that are malformed or whose algorithm does not fit",
        arguments: [
            (
                ec2(-35, crv: 1, point: P256.Signing.PrivateKey().publicKey.x963Representation),
                WebAuthnError.Code.malformedPublicKey
            ), // ES384 on P-256
            // ES256 on P-384
            (ec2(-7, crv: 2, point: P384.Signing.PrivateKey().publicKey.x963Representation), .malformedPublicKey),
            // EdDSA on EC2
            (ec2(-8, crv: 1, point: P256.Signing.PrivateKey().publicKey.x963Representation), .malformedPublicKey),
            // not on the curve
            (ec2(-7, crv: 1, point: Data([4] + [UInt8](repeating: 1, count: 64))), .malformedPublicKey),
            // short coordinates
            (ec2(-7, crv: 1, point: Data([4] + [UInt8](repeating: 1, count: 62))), .malformedPublicKey),
            (ec2(-999, crv: 1, point: P256.Signing.PrivateKey().publicKey.x963Representation), .unsupportedAlgorithm),
            (okp(-7, crv: 6, x: [UInt8](repeating: 1, count: 32)), .malformedPublicKey), // ES256 on Ed25519
            // X25519 is for key agreement
            (okp(-8, crv: 4, x: [UInt8](repeating: 1, count: 32)), .unsupportedAlgorithm),
            (okp(-8, crv: 6, x: [UInt8](repeating: 1, count: 31)), .malformedPublicKey),
            // no alg
            (CBOREncoder.encode(.map([CBORPair(.int(1), .int(2)), CBORPair(.int(-1), .int(1))])), .malformedPublicKey),
            (CBOREncoder.encode(.map([CBORPair(.int(3), .int(-7))])), .malformedPublicKey), // no kty
            (
                CBOREncoder.encode(.map([CBORPair(.int(1), .int(4)), CBORPair(.int(3), .int(-7))])),
                .unsupportedAlgorithm
            ), // kty Symmetric
            (
                CBOREncoder.encode(
                    .map([
                        CBORPair(.int(1), .int(3)), CBORPair(.int(3), .int(-65535)), CBORPair(.int(-1), .bytes([1])),
                        CBORPair(.int(-2), .bytes([1])),
                    ])), .unsupportedAlgorithm
            ), // RS1
            (
                CBOREncoder.encode(
                    .map([
                        CBORPair(.int(1), .int(3)), CBORPair(.int(3), .int(-257)),
                        CBORPair(.int(-1), .bytes([UInt8](repeating: 0xC1, count: 128))),
                        CBORPair(.int(-2), .bytes([1, 0, 1])),
                    ])), .malformedPublicKey
            ), // RSA-1024
            (
                CBOREncoder.encode(
                    .map([
                        CBORPair(.int(1), .int(7)), CBORPair(.int(3), .int(-48)),
                        CBORPair(.int(-1), .bytes([1, 2, 3])),
                    ])), .malformedPublicKey
            ), // short ML-DSA key
            (CBOREncoder.encode(.array([])), .malformedPublicKey),
            ([0xA1, 0x01], .malformedCBOR),
        ])
    func refusals(cose: [UInt8], code: WebAuthnError.Code) {
        let error = TestSupport.error { () throws(WebAuthnError) in try CredentialPublicKey(cose: cose) }
        #expect(error?.code == code, "\(String(describing: error))")
    }
}
