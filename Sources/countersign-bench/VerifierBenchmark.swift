import Crypto
import Foundation
import WebAuthn

/// The verifier benchmark: the bare P-256 check against `AssertionVerifier.verify` as the server
/// calls it, plus a breakdown of what the verifier does around the signature check.
struct VerifierBenchmark {
    let fixture: VerifierFixture
    let verifier: AssertionVerifier

    /// A fresh fixture and a verifier for its relying party.
    init() throws {
        fixture = try VerifierFixture()
        verifier = AssertionVerifier(relyingParty: fixture.relyingParty)
    }

    /// The three headline rows: raw signature check, verifier with the key parsed once, and verifier
    /// with the key from the stored COSE text through `CredentialPublicKeyCache`, as
    /// `BiometricService.checkAssertion` does.
    var contenders: [TimedOperation] {
        let (fixture, verifier, cache) = (self.fixture, self.verifier, CredentialPublicKeyCache())
        return [
            TimedOperation(name: "raw P256 isValidSignature") {
                fixture.rawPublicKey.isValidSignature(fixture.rawSignature, for: fixture.signedData)
            },
            TimedOperation(name: "AssertionVerifier.verify (key parsed once)") {
                fixture.verify(with: fixture.credentialPublicKey, verifier: verifier)
            },
            TimedOperation(name: "verifier, key from the server's cache") {
                guard let key = try? cache.key(stored: fixture.storedPublicKey) else { return false }
                return fixture.verify(with: key, verifier: verifier)
            },
        ]
    }

    /// Each step of the verifier (and the server's own pre-parse) timed alone, to show where the
    /// time between the raw row and the verifier rows goes.
    var breakdown: [TimedOperation] {
        let fixture = self.fixture
        return [
            TimedOperation(name: "clientDataJSON: CollectedClientData(json:)") {
                (try? CollectedClientData(json: fixture.clientDataJSON)) != nil
            },
            TimedOperation(name: "reference: Foundation JSONDecoder, same members") {
                (try? JSONDecoder().decode(ClientDataMembers.self, from: Data(fixture.clientDataJSON))) != nil
            },
            TimedOperation(name: "clientData.check (base64url challenge, origin)") {
                let clientData = try! CollectedClientData(json: fixture.clientDataJSON)
                return
                    (try? clientData.check(
                        type: "webauthn.get", challenge: fixture.challenge, relyingParty: fixture.relyingParty)) != nil
            },
            TimedOperation(name: "server pre-parse: JSONDecoder {challenge} only") {
                (try? JSONDecoder().decode(ChallengeOnly.self, from: Data(fixture.clientDataJSON))) != nil
            },
            TimedOperation(name: "AuthenticatorData parse") {
                (try? AuthenticatorData(fixture.authenticatorData)) != nil
            },
            TimedOperation(name: "signed data: authData ‖ SHA-256(clientDataJSON)") {
                var signed = fixture.authenticatorData
                signed.reserveCapacity(fixture.authenticatorData.count + SHA256.byteCount)
                signed.append(contentsOf: SHA256.hash(data: fixture.clientDataJSON))
                return signed.count == 69
            },
            TimedOperation(name: "swift-crypto ECDSASignature(derRepresentation:)") {
                (try? P256.Signing.ECDSASignature(derRepresentation: fixture.signature)) != nil
            },
            TimedOperation(name: "CredentialPublicKey.verify (DER parse + P256)") {
                fixture.credentialPublicKey.verify(signature: fixture.signature, over: fixture.signedData)
            },
            TimedOperation(name: "COSE key: base64url + CBOR + point decode") {
                (try? CredentialPublicKey(cose: Base64URL.decode(fixture.storedPublicKey) ?? [])) != nil
            },
        ]
    }

    /// The shape `BiometricService.challenge(in:)` decodes before the verifier runs.
    private struct ChallengeOnly: Decodable { let challenge: String }

    /// The members `CollectedClientData` reads, for timing Foundation's JSONDecoder on the same input.
    private struct ClientDataMembers: Decodable {
        let type: String, challenge: String, origin: String
        let crossOrigin: Bool?, topOrigin: String?
    }
}
