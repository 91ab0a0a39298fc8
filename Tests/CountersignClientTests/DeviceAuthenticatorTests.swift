import CountersignClient
import Crypto
import Testing
import WebAuthn

@Suite("Device authenticator")
struct DeviceAuthenticatorTests {
    @Test("copies share one counter, and every assertion raises it")
    func sharedCounter() {
        let device = DeviceAuthenticator(rpId: "localhost", origin: "http://localhost:8080")
        let copy = device
        _ = device.makeAssertion(challenge: [1, 2, 3])
        let second = copy.makeAssertion(challenge: [4, 5, 6])
        #expect(device.signCount == 2)
        // authenticatorData: rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian).
        #expect(Array(second.authenticatorData[33..<37]) == [0, 0, 0, 2])
    }

    @Test("an assertion verifies under the registered key and fails under another challenge")
    func assertionVerifies() throws {
        let device = DeviceAuthenticator(rpId: "localhost", origin: "http://localhost:8080")
        let verifier = AssertionVerifier(
            relyingParty: RelyingParty(id: "localhost", name: "Countersign", origins: ["http://localhost:8080"]))
        let key = try CredentialPublicKey(cose: device.credentialPublicKeyCOSE)
        let assertion = device.makeAssertion(challenge: Array(repeating: 7, count: 32))
        let verified = try verifier.verify(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature,
            expectedChallenge: Array(repeating: 7, count: 32), credentialPublicKey: key, storedSignCount: 0,
            userVerificationRequired: true
        )
        #expect(verified.signCount == 1)
        #expect(throws: WebAuthnError.self) {
            try verifier.verify(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
                signature: assertion.signature,
                expectedChallenge: Array(repeating: 8, count: 32), credentialPublicKey: key, storedSignCount: 0,
                userVerificationRequired: true
            )
        }
    }
}
