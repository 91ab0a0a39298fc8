import CountersignCodec
import Testing
import WebAuthn

@Suite("authenticatorData parsing")
struct AuthenticatorDataTests {
    private func registrationAuthData(_ file: String) throws -> [UInt8] {
        let vector = try TestSupport.vector(file)
        let object = try CBORDecoder.decode(
            try TestSupport.b64(try #require(vector.registration).response.response.attestationObject))
        return try #require(object[text: "authData"]?.bytesValue)
    }

    @Test("parses attested credential data")
    func attested() throws {
        let bytes = try registrationAuthData("w3c-none-es256.json")
        let data = try AuthenticatorData(bytes)
        let attested = try #require(data.attestedCredentialData)
        #expect(data.flags.userPresent && data.flags.attestedCredentialData && !data.flags.extensionData)
        #expect(attested.aaguid.count == 16)
        #expect(attested.credentialId == (try TestSupport.b64("-R85HbTJsv3g6nAYnLo_tj9Xm6YSKzOtlP8-wzAIS-Q")))
        #expect(try CredentialPublicKey(cose: attested.publicKeyBytes).algorithm == .es256)
    }

    @Test("every truncation fails with malformed_authenticator_data")
    func truncated() throws {
        let bytes = try registrationAuthData("w3c-none-es256-long-credential-id.json")
        for length in 0..<bytes.count {
            let error = TestSupport.error { () throws(WebAuthnError) in try AuthenticatorData(Array(bytes[0..<length]))
            }
            #expect(
                error?.code == .malformedAuthenticatorData, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }

    @Test("trailing bytes, or data the flags do not announce, are refused")
    func trailing() throws {
        let bytes = try registrationAuthData("w3c-none-es256.json")
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try AuthenticatorData(bytes + [0]) }?.code
                == .malformedAuthenticatorData)
        var withoutAT = bytes
        withoutAT[32] &= ~0x40
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try AuthenticatorData(withoutAT) }?.code
                == .malformedAuthenticatorData)
        var withED = bytes
        withED[32] |= 0x80 // ED set but no extension map follows
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try AuthenticatorData(withED) }?.code
                == .malformedAuthenticatorData)
    }

    @Test("a credential ID length beyond the data is refused, not trusted")
    func hugeCredentialIdLength() throws {
        var bytes = try registrationAuthData("w3c-none-es256.json")
        bytes[53] = 0xFF
        bytes[54] = 0xFF
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try AuthenticatorData(bytes) }?.code
                == .malformedAuthenticatorData)
    }

    @Test("extensions are parsed when ED is set")
    func extensions() throws {
        var bytes = [UInt8](repeating: 0xAA, count: 32) + [0x81, 0, 0, 0, 9]
        bytes += CBOREncoder.encode(.map([CBORPair(.text("credProtect"), .int(2))]))
        let data = try AuthenticatorData(bytes)
        #expect(data.signCount == 9)
        #expect(data.extensions?[text: "credProtect"]?.intValue == 2)
    }

    @Test("flags round-trip through their byte")
    func flags() {
        for byte in UInt8.min...UInt8.max {
            let flags = AuthenticatorFlags(byte: byte)
            #expect(flags.byte == byte & ~0x22, "reserved bits 1 and 5 are dropped")
            #expect(flags.userPresent == (byte & 1 != 0))
            #expect(flags.backupState == (byte & 0x10 != 0))
        }
    }
}
