import CountersignClient
import Crypto
import Testing
import WebAuthn

@Suite("Assertion verification (WebAuthn §7.2) with the device authenticator")
struct AssertionVerifierTests {
    let relyingParty = TestSupport.relyingParty
    let authenticator = DeviceAuthenticator(rpId: "pay.countersign.test", origin: "https://pay.countersign.test")
    let challenge = (0..<32).map { UInt8($0) }

    var verifier: AssertionVerifier { AssertionVerifier(relyingParty: relyingParty) }
    var key: CredentialPublicKey { get throws { try CredentialPublicKey(cose: authenticator.credentialPublicKeyCOSE) } }

    /// Verifies with the test's defaults, overridable per case.
    func verify(
        _ assertion: (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]),
        challenge: [UInt8]? = nil, stored: UInt32 = 0, uv: Bool = false, verifier: AssertionVerifier? = nil
    ) throws -> Result<VerifiedAssertion, WebAuthnError> {
        let key = try self.key
        let verifier = verifier ?? self.verifier
        return Result { () throws(WebAuthnError) in
            try verifier.verify(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
                signature: assertion.signature,
                expectedChallenge: challenge ?? self.challenge, credentialPublicKey: key, storedSignCount: stored,
                userVerificationRequired: uv)
        }
    }

    /// An assertion over hand-made clientDataJSON and authenticatorData, signed by the authenticator's key.
    func signed(_ clientDataJSON: String, flags: UInt8 = 0x05, count: UInt32 = 1, rpId: String = "pay.countersign.test")
        throws -> ([UInt8], [UInt8], [UInt8])
    {
        let client = Array(clientDataJSON.utf8)
        let authData =
            Array(SHA256.hash(data: Array(rpId.utf8))) + [flags] + withUnsafeBytes(of: count.bigEndian, Array.init)
        let signature = try authenticator.privateKey.signature(for: authData + SHA256.hash(data: client))
            .derRepresentation
        return (client, authData, Array(signature))
    }

    func clientData(type: String = "webauthn.get", extra: String = "") -> String {
        "{\"type\":\"\(type)\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":\"https://pay.countersign.test\"\(extra)}"
    }

    @Test("a device assertion verifies and reports the rising counter and flags")
    func roundTrip() throws {
        let first = try verify(authenticator.makeAssertion(challenge: challenge), uv: true).get()
        #expect(first.signCount == 1)
        #expect(first.flags.userPresent && first.flags.userVerified)
        let second = try verify(authenticator.makeAssertion(challenge: challenge), stored: first.signCount).get()
        #expect(second.signCount == 2)
    }

    @Test("each tampering is refused with its code")
    func negatives() throws {
        #expect(
            try verify(authenticator.makeAssertion(challenge: challenge), challenge: challenge.reversed()).failure?.code
                == .challengeMismatch)
        let elsewhere = DeviceAuthenticator(
            rpId: "pay.countersign.test", origin: "https://evil.test", privateKey: authenticator.privateKey)
        #expect(try verify(elsewhere.makeAssertion(challenge: challenge)).failure?.code == .originNotAllowed)
        #expect(
            try verify(authenticator.makeAssertion(challenge: challenge, userVerified: false), uv: true).failure?.code
                == .userNotVerified)
        var flipped = authenticator.makeAssertion(challenge: challenge)
        flipped.signature[flipped.signature.count - 1] ^= 0x01
        #expect(try verify(flipped).failure?.code == .badSignature)
        let regressed = authenticator.makeAssertion(challenge: challenge)
        #expect(try verify(regressed, stored: authenticator.signCount).failure?.code == .signCountRegression)
        #expect(try verify(regressed, stored: authenticator.signCount + 5).failure?.code == .signCountRegression)
        let otherRP = DeviceAuthenticator(
            rpId: "evil.test", origin: "https://pay.countersign.test", privateKey: authenticator.privateKey)
        #expect(try verify(otherRP.makeAssertion(challenge: challenge)).failure?.code == .rpIdHashMismatch)
    }

    @Test("the counter rule: 0/0 passes, any non-zero pair must rise")
    func counterRule() throws {
        #expect(try verify(signed(clientData(), count: 0), stored: 0).get().signCount == 0)
        #expect(try verify(signed(clientData(), count: 0), stored: 3).failure?.code == .signCountRegression)
        #expect(try verify(signed(clientData(), count: 4), stored: 3).get().signCount == 4)
        #expect(try verify(signed(clientData(), count: 3), stored: 3).failure?.code == .signCountRegression)
    }

    @Test("flags: UP required, BS without BE refused, BE with BS accepted")
    func flags() throws {
        #expect(try verify(signed(clientData(), flags: 0x04)).failure?.code == .userNotPresent)
        #expect(try verify(signed(clientData(), flags: 0x11)).failure?.code == .invalidBackupFlags)
        let synced = try verify(signed(clientData(), flags: 0x19)).get()
        #expect(synced.flags.backupEligible && synced.flags.backupState)
    }

    @Test("clientDataJSON: member order, escaped slashes and unknown members do not matter; type and JSON do")
    func clientDataParsing() throws {
        let legacy =
            "{\"origin\":\"https:\\/\\/pay.countersign.test\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"clientExtensions\":{},\"hashAlgorithm\":\"SHA-256\",\"type\":\"webauthn.get\"}"
        #expect(try verify(signed(legacy)).get().signCount == 1)
        #expect(
            try verify(
                signed(clientData(extra: ",\"crossOrigin\":false,\"other_keys_can_be_added_here\":[1,{\"a\":null}]"))
            ).get().signCount == 1)
        #expect(try verify(signed(clientData(type: "webauthn.create"))).failure?.code == .wrongType)
        #expect(try verify(signed(String(clientData().dropLast()))).failure?.code == .malformedClientData)
        #expect(try verify(signed("[1,2]")).failure?.code == .malformedClientData)
        #expect(try verify(signed(clientData(extra: ",\"crossOrigin\":\"no\""))).failure?.code == .malformedClientData)
        let badChallenge =
            "{\"type\":\"webauthn.get\",\"challenge\":\"***\",\"origin\":\"https://pay.countersign.test\"}"
        #expect(try verify(signed(badChallenge)).failure?.code == .malformedClientData)
    }

    @Test("cross-origin ceremonies are refused unless allowed")
    func crossOrigin() throws {
        let cross = try signed(clientData(extra: ",\"crossOrigin\":true"))
        let top = try signed(clientData(extra: ",\"crossOrigin\":true,\"topOrigin\":\"https://shop.test\""))
        let topOnly = try signed(clientData(extra: ",\"topOrigin\":\"https://shop.test\""))
        for assertion in [cross, top, topOnly] {
            #expect(try verify(assertion).failure?.code == .crossOriginRefused)
        }
        var permissive = relyingParty
        permissive.allowCrossOrigin = true
        #expect(try verify(top, verifier: AssertionVerifier(relyingParty: permissive)).get().signCount == 1)
    }

    @Test("truncated or padded authenticatorData is malformed")
    func malformedAuthenticatorData() throws {
        let assertion = authenticator.makeAssertion(challenge: challenge)
        for length in [0, 32, 36] {
            let cut = (assertion.clientDataJSON, Array(assertion.authenticatorData.prefix(length)), assertion.signature)
            #expect(try verify(cut).failure?.code == .malformedAuthenticatorData)
        }
        let padded = (assertion.clientDataJSON, assertion.authenticatorData + [0], assertion.signature)
        #expect(try verify(padded).failure?.code == .malformedAuthenticatorData)
    }
}

extension Result {
    /// The failure, if any.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
