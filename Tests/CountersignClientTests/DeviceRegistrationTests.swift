import CountersignAPI
import CountersignClient
import Foundation
import Testing
import WebAuthn

@Suite("Device registration")
struct DeviceRegistrationTests {
    static let options = #"""
        {"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","rp":{"id":"countersign.test","name":"Countersign"},
         "user":{"id":"dXNlcg","name":"08012345678","displayName":"Ada"},"pubKeyCredParams":[{"type":"public-key","alg":-7}],
         "timeout":60000,"attestation":"none","authenticatorSelection":{"residentKey":"preferred","userVerification":"required"},
         "excludeCredentials":[]}
        """#

    @Test("registerDevice steps up, then registers a new key for the server's RP ID over its challenge")
    func registersOverTheChallenge() async throws {
        let transport = ScriptedTransport()
        transport.expect("POST", "/biometric/register/options", json: Self.options)
        transport.expect(
            "POST", "/biometric/register/verify", status: 201, json: #"{"verified":true,"credentialId":"x"}"#)
        let client = CountersignAPIClient(transport: transport, sessionToken: "tok")

        let device = try await client.registerDevice(
            stepUp: RegistrationOptionsRequest(pin: "2468"), origin: "https://app.countersign.test")

        #expect(device.rpId == "countersign.test")
        #expect(device.origin == "https://app.countersign.test")
        let sent = transport.requests
        let stepUp = try JSONDecoder().decode(RegistrationOptionsRequest.self, from: Data(try #require(sent[0].body)))
        #expect(stepUp.pin == "2468")
        let registration = try JSONDecoder().decode(
            RegistrationResponseJSON.self, from: Data(try #require(sent[1].body)))
        #expect(registration.id == Base64URL.encode(device.credentialId))
        let clientData = try JSONDecoder().decode(
            ClientData.self, from: Data(try #require(Base64URL.decode(registration.response.clientDataJSON))))
        #expect(clientData.type == "webauthn.create")
        #expect(clientData.challenge == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(clientData.origin == "https://app.countersign.test")
        transport.verifyAllUsed()
    }

    @Test("a challenge that is not base64url is a decoding error, and no key is registered")
    func badChallenge() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "POST", "/biometric/register/options",
            json: Self.options.replacingOccurrences(
                of: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", with: "not base64!"))
        let client = CountersignAPIClient(transport: transport, sessionToken: "tok")
        let error = await #expect(throws: CountersignClientError.self) {
            try await client.registerDevice(
                stepUp: RegistrationOptionsRequest(pin: "2468"), origin: "https://app.countersign.test")
        }
        guard case .decoding? = error else {
            Issue.record("expected .decoding, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.count == 1)
    }

    /// The fields of clientDataJSON this suite checks.
    struct ClientData: Decodable {
        var type: String
        var challenge: String
        var origin: String
    }
}
