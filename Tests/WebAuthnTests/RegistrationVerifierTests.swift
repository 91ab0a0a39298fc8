import CountersignClient
import CountersignCodec
import Crypto
import Testing
import WebAuthn

@Suite("Registration verification (WebAuthn §7.1) with the device authenticator")
struct RegistrationVerifierTests {
    let authenticator = DeviceAuthenticator(
        rpId: "pay.countersign.test", origin: "https://pay.countersign.test", signCount: 7)
    let challenge = Array("registration challenge".utf8)

    func verify(
        _ registration: (clientDataJSON: [UInt8], attestationObject: [UInt8]), rawId: [UInt8]? = nil,
        challenge: [UInt8]? = nil,
        uv: Bool = false, policy: AttestationPolicy? = nil, allowed: Set<COSEAlgorithm> = [.es256]
    ) -> Result<VerifiedRegistration, WebAuthnError> {
        let verifier =
            policy.map { RegistrationVerifier(relyingParty: TestSupport.relyingParty, attestationPolicy: $0) }
            ?? RegistrationVerifier(relyingParty: TestSupport.relyingParty)
        return Result { () throws(WebAuthnError) in
            try verifier.verify(
                clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
                rawId: rawId ?? authenticator.credentialId, expectedChallenge: challenge ?? self.challenge,
                userVerificationRequired: uv,
                allowedAlgorithms: allowed)
        }
    }

    /// The device's registration with its attestation object rebuilt from `entries` (fmt, attStmt, authData).
    func rebuilt(fmt: String, statement: CBORValue, authData: (([UInt8]) -> [UInt8]) = { $0 }) throws -> (
        [UInt8], [UInt8]
    ) {
        let registration = authenticator.makeRegistration(challenge: challenge)
        let object = try CBORDecoder.decode(registration.attestationObject)
        let original = try #require(object[text: "authData"]?.bytesValue)
        let attestationObject = CBOREncoder.encode(
            .map([
                CBORPair(.text("fmt"), .text(fmt)), CBORPair(.text("attStmt"), statement),
                CBORPair(.text("authData"), .bytes(authData(original))),
            ]))
        return (registration.clientDataJSON, attestationObject)
    }

    @Test(
        "none and packed self attestation round-trip, and the stored key verifies later assertions",
        arguments: [DeviceAuthenticator.Attestation.none, .packed])
    func roundTrip(attestation: DeviceAuthenticator.Attestation) throws {
        let result = try verify(
            authenticator.makeRegistration(challenge: challenge, attestation: attestation), uv: true
        ).get()
        #expect(result.credentialId == authenticator.credentialId)
        #expect(result.credentialPublicKey == authenticator.credentialPublicKeyCOSE)
        #expect(result.algorithm == .es256)
        #expect(result.signCount == 7)
        #expect(result.aaguid == [UInt8](repeating: 0, count: 16))
        #expect(result.flags.userPresent && result.flags.userVerified && result.flags.attestedCredentialData)
        #expect(result.attestationFormat == attestation.rawValue)
        #expect(result.attestationVerified)
        #expect(result.attestationType == (attestation == .none ? .none : .selfAttestation))

        let key = try CredentialPublicKey(cose: result.credentialPublicKey)
        let assertion = authenticator.makeAssertion(challenge: [9, 9])
        let verified = try AssertionVerifier(relyingParty: TestSupport.relyingParty).verify(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature,
            expectedChallenge: [9, 9], credentialPublicKey: key, storedSignCount: result.signCount,
            userVerificationRequired: true)
        #expect(verified.signCount == 8)
    }

    @Test("ceremony checks are refused with their codes")
    func negatives() throws {
        let registration = authenticator.makeRegistration(challenge: challenge, userVerified: false)
        #expect(verify(registration, challenge: [1]).failure?.code == .challengeMismatch)
        #expect(verify(registration, uv: true).failure?.code == .userNotVerified)
        #expect(verify(registration, rawId: [1, 2, 3]).failure?.code == .credentialIdMismatch)
        let elsewhere = DeviceAuthenticator(rpId: "pay.countersign.test", origin: "https://evil.test")
        #expect(
            verify(elsewhere.makeRegistration(challenge: challenge), rawId: elsewhere.credentialId).failure?.code
                == .originNotAllowed)
        let otherRP = DeviceAuthenticator(rpId: "countersign.test", origin: "https://pay.countersign.test")
        #expect(
            verify(otherRP.makeRegistration(challenge: challenge), rawId: otherRP.credentialId).failure?.code
                == .rpIdHashMismatch)
        let assertion = authenticator.makeAssertion(challenge: challenge)
        #expect(verify((assertion.clientDataJSON, registration.attestationObject)).failure?.code == .wrongType)
        #expect(
            verify((registration.clientDataJSON, Array(registration.attestationObject.dropLast()))).failure?.code
                == .malformedCBOR)
    }

    @Test("attestation statements are checked for their format")
    func statements() throws {
        #expect(
            verify(try rebuilt(fmt: "none", statement: .map([CBORPair(.text("sig"), .bytes([1]))]))).failure?.code
                == .malformedAttestation)
        #expect(
            verify(
                try rebuilt(
                    fmt: "packed",
                    statement: .map([CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes([0x30, 0]))]))
            ).failure?.code == .attestationFailed)
        #expect(
            verify(
                try rebuilt(
                    fmt: "packed",
                    statement: .map([CBORPair(.text("alg"), .int(-8)), CBORPair(.text("sig"), .bytes([1]))]))
            ).failure?.code == .attestationFailed)
        #expect(
            verify(try rebuilt(fmt: "packed", statement: .map([CBORPair(.text("sig"), .bytes([1]))]))).failure?.code
                == .malformedAttestation)
        #expect(
            verify(
                try rebuilt(
                    fmt: "packed",
                    statement: .map([
                        CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes([1])),
                        CBORPair(.text("x5c"), .array([.bytes([0x30, 0x00])])),
                    ]))
            ).failure?.code == .malformedAttestation)
        #expect(
            verify(try rebuilt(fmt: "fido-u2f", statement: .map([CBORPair(.text("sig"), .bytes([1]))]))).failure?.code
                == .malformedAttestation)
        #expect(
            verify(try rebuilt(fmt: "x-unknown", statement: .map([]))).failure?.code == .unsupportedAttestationFormat)
    }

    @Test("unverifiable formats are refused by default and accepted as unverified only by opt-in")
    func policy() throws {
        let safetynet = try rebuilt(
            fmt: "android-safetynet",
            statement: .map([CBORPair(.text("ver"), .text("1")), CBORPair(.text("response"), .bytes([1]))]))
        #expect(verify(safetynet).failure?.code == .unsupportedAttestationFormat, "the default policy")
        #expect(verify(safetynet, policy: .verifiedOnly).failure?.code == .unsupportedAttestationFormat)
        let accepted = try verify(safetynet, policy: .verifiedOrUnverifiable).get()
        #expect(!accepted.attestationVerified)
        #expect(accepted.attestationType == .unverified)
        // `none` is no claim at all, so no policy refuses it.
        #expect(try verify(authenticator.makeRegistration(challenge: challenge)).get().attestationType == .none)
        #expect(
            try verify(authenticator.makeRegistration(challenge: challenge), policy: .verifiedOnly).get()
                .attestationVerified)
        #expect(
            verify(try rebuilt(fmt: "x-unknown", statement: .map([])), policy: .verifiedOrUnverifiable).failure?.code
                == .unsupportedAttestationFormat)
    }

    @Test("a credential whose algorithm was not offered is refused (§7.1 step 20)")
    func algorithmNotOffered() throws {
        let registration = authenticator.makeRegistration(challenge: challenge)
        #expect(verify(registration, allowed: [.rs256, .edDSA]).failure?.code == .unexpectedAlgorithm)
        #expect(verify(registration, allowed: []).failure?.code == .unexpectedAlgorithm)
        #expect(try verify(registration, allowed: [.rs256, .es256]).get().algorithm == .es256)
        // ESP256 is the same P-256 key under another identifier: offering ES256 does not offer it.
        let esp256 = try rebuilt(fmt: "none", statement: .map([])) { authData in
            let keyStart = 37 + 16 + 2 + authenticator.credentialId.count
            var key = try! CBORDecoder.decode(Array(authData[keyStart...])).mapValue!
            key[1].value = .int(-9)
            return Array(authData[0..<keyStart]) + CBOREncoder.encode(.map(key))
        }
        #expect(verify(esp256).failure?.code == .unexpectedAlgorithm)
        #expect(try verify(esp256, allowed: [.esp256]).get().algorithm == .esp256)
    }

    @Test("authenticatorData must carry attested credential data with a supported key")
    func credentialData() throws {
        // AT cleared and the credential data cut off: a well-formed authenticatorData without a credential.
        let noCredential = try rebuilt(fmt: "none", statement: .map([])) {
            Array($0[0..<32]) + [$0[32] & ~0x40] + Array($0[33..<37])
        }
        #expect(verify(noCredential).failure?.code == .missingCredentialData)
        // The COSE alg swapped for an unknown one.
        let unknownAlg = try rebuilt(fmt: "none", statement: .map([])) { authData in
            let keyStart = 37 + 16 + 2 + authenticator.credentialId.count
            return Array(authData[0..<keyStart])
                + CBOREncoder.encode(.map([CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(-1000))]))
        }
        #expect(verify(unknownAlg).failure?.code == .unsupportedAlgorithm)
    }

    @Test("credential IDs over 1023 bytes are refused")
    func longCredentialId() {
        let id = [UInt8](repeating: 0x42, count: 1024)
        let device = DeviceAuthenticator(
            rpId: "pay.countersign.test", origin: "https://pay.countersign.test", credentialId: id)
        #expect(verify(device.makeRegistration(challenge: challenge), rawId: id).failure?.code == .credentialIdMismatch)
        let maximum = DeviceAuthenticator(
            rpId: "pay.countersign.test", origin: "https://pay.countersign.test", credentialId: Array(id.dropLast()))
        #expect(
            verify(maximum.makeRegistration(challenge: challenge), rawId: maximum.credentialId).success?.credentialId
                .count == 1023)
    }
}

extension Result {
    /// The success value, if any.
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
