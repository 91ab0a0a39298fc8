import CountersignCodec
import Crypto
import Testing
import WebAuthn

/// The algorithms verified by this library's own code (Ed448, ML-DSA-44) and the ML-DSA cross-check with swift-crypto.
@Suite("Ed448 and ML-DSA")
struct Ed448AndMLDSATests {
    @Test("Ed448 (RFC 8032 §7.4 test vectors)")
    func ed448() throws {
        let publicKey = TestSupport.hex(
            "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480"
        )
        let signature = TestSupport.hex(
            "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779805e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c03a00"
        )
        for alg: Int64 in [-8, -53] {
            let key = try CredentialPublicKey(cose: CredentialPublicKeyTests.okp(alg, crv: 7, x: publicKey))
            CredentialPublicKeyTests.expectVerifies(key, signature, [0x03])
        }
        let empty = TestSupport.hex(
            "3d30cb9441fc3af2a43e12a0e07a4777a9a24dcfac7599d6bd4a6c61e0c18ed3b7a9b735e879e9aa41a267f7addff732e61edb56a4ff38d7804792f252d1083bc49bf207d9107808e57246035ab24fa75dfa20a25c298a7ebb8373c753619eae39e2f777e5a34f0f8fb0b0ae8cd2b9671e00"
        )
        CredentialPublicKeyTests.expectVerifies(
            try CredentialPublicKey(cose: CredentialPublicKeyTests.okp(-53, crv: 7, x: publicKey)), empty, [])
        // S ≥ L is refused (RFC 8032 §5.2.7 step 1) even when the rest is untouched.
        var highS = signature
        highS[113] = 0x01
        #expect(
            !(try CredentialPublicKey(cose: CredentialPublicKeyTests.okp(-53, crv: 7, x: publicKey))).verify(
                signature: highS, over: [0x03]))
        // A key whose y is not below p, or that is off the curve, is malformed.
        var offCurve = publicKey
        offCurve[0] ^= 0x02 // y with no x on the curve (checked with a Legendre symbol)
        for bad in [[UInt8](repeating: 0xFF, count: 56) + [0x00], offCurve, Array(publicKey.dropLast())] {
            let error = TestSupport.error { () throws(WebAuthnError) in
                try CredentialPublicKey(cose: CredentialPublicKeyTests.okp(-53, crv: 7, x: bad))
            }
            #expect(error?.code == .malformedPublicKey)
        }
    }

    @Test("ML-DSA-65 and -87: swift-crypto signatures verify through the COSE key and the pure-Swift verifier alike")
    func mlDSACrossCheck() throws {
        let key65 = try MLDSA65.PrivateKey()
        let signature65 = Array(try key65.signature(for: CredentialPublicKeyTests.message))
        let raw65 = Array(key65.publicKey.rawRepresentation)
        let cose65 = CBOREncoder.encode(
            .map([CBORPair(.int(1), .int(7)), CBORPair(.int(3), .int(-49)), CBORPair(.int(-1), .bytes(raw65))]))
        CredentialPublicKeyTests.expectVerifies(try CredentialPublicKey(cose: cose65), signature65)
        let pure65 = try MLDSAPublicKey(.mlDSA65, rawRepresentation: raw65)
        #expect(pure65.isValidSignature(signature65, for: CredentialPublicKeyTests.message))
        #expect(!pure65.isValidSignature(signature65, for: CredentialPublicKeyTests.message + [1]))

        let key87 = try MLDSA87.PrivateKey()
        let signature87 = Array(try key87.signature(for: CredentialPublicKeyTests.message))
        let pure87 = try MLDSAPublicKey(.mlDSA87, rawRepresentation: Array(key87.publicKey.rawRepresentation))
        #expect(pure87.isValidSignature(signature87, for: CredentialPublicKeyTests.message))
        var flipped = signature87
        flipped[10] ^= 0x80
        #expect(!pure87.isValidSignature(flipped, for: CredentialPublicKeyTests.message))
    }

    @Test("ML-DSA-44 via the pure-Swift verifier, on the shared py_webauthn vector")
    func mlDSA44() throws {
        let vector = try TestSupport.vector("mldsa/pywebauthn-mldsa44.json")
        let authentication = try #require(vector.authentication)
        let key = try CredentialPublicKey(cose: try TestSupport.b64(authentication.credentialPublicKey))
        #expect(key.algorithm == .mlDSA44)
        let response = authentication.response.response
        let signed =
            try TestSupport.b64(response.authenticatorData)
            + SHA256.hash(data: try TestSupport.b64(response.clientDataJSON))
        CredentialPublicKeyTests.expectVerifies(key, try TestSupport.b64(response.signature), signed)
    }
}
