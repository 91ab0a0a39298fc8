import Foundation
import WebAuthn

/// Runs test vectors through `RegistrationVerifier` and `AssertionVerifier` (what `countersign webauthn check` prints).
public enum VectorRunner {
    /// Judges each ceremony in `vector`. The vectors' policy demands verified attestation, hence `.verifiedOnly` by default.
    public static func run(_ vector: WebAuthnTestVector, attestationPolicy: AttestationPolicy = .verifiedOnly)
        -> [VectorOutcome]
    {
        let relyingParty = RelyingParty(id: vector.rpId, name: vector.rpId, origins: Set(vector.origins))
        var outcomes: [VectorOutcome] = []
        if let registration = vector.registration {
            outcomes.append(
                judge(vector.name, "registration", expected: registration.expect) { () throws(WebAuthnError) in
                    try register(registration, relyingParty, attestationPolicy)
                })
        }
        if let authentication = vector.authentication {
            outcomes.append(
                judge(vector.name, "authentication", expected: authentication.expect) { () throws(WebAuthnError) in
                    try authenticate(authentication, relyingParty)
                })
        }
        return outcomes
    }

    /// Loads one vector file and judges it.
    public static func run(fileAt path: String, attestationPolicy: AttestationPolicy = .verifiedOnly) throws
        -> [VectorOutcome]
    {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return run(try JSONDecoder().decode(WebAuthnTestVector.self, from: data), attestationPolicy: attestationPolicy)
    }

    /// Runs `ceremony`; it returns a mismatch description for valid ceremonies whose details differ from the vector's.
    private static func judge(
        _ name: String, _ ceremony: String, expected: String, _ body: () throws(WebAuthnError) -> String?
    ) -> VectorOutcome {
        do {
            let mismatch = try body()
            return VectorOutcome(
                name: name, ceremony: ceremony, expected: expected, got: "valid", reason: mismatch ?? "",
                matches: expected == "valid" && mismatch == nil)
        } catch {
            return VectorOutcome(
                name: name, ceremony: ceremony, expected: expected, got: "invalid", reason: error.description,
                errorCode: error.code)
        }
    }

    private static func register(
        _ vector: WebAuthnTestVector.Registration, _ relyingParty: RelyingParty, _ policy: AttestationPolicy
    ) throws(WebAuthnError) -> String? {
        let response = vector.response.response
        let verified = try RegistrationVerifier(relyingParty: relyingParty, attestationPolicy: policy).verify(
            clientDataJSON: try decode(response.clientDataJSON, "clientDataJSON"),
            attestationObject: try decode(response.attestationObject, "attestationObject"),
            rawId: try decode(vector.response.rawId, "rawId"),
            expectedChallenge: try decode(vector.challenge, "challenge"),
            // The vectors carry no pubKeyCredParams: every algorithm the verifier supports counts as offered.
            userVerificationRequired: vector.userVerificationRequired, allowedAlgorithms: Set(COSEAlgorithm.allCases))
        if let format = vector.attestationFormat, format != verified.attestationFormat {
            return "attestation format \(verified.attestationFormat), expected \(format)"
        }
        return nil
    }

    private static func authenticate(_ vector: WebAuthnTestVector.Authentication, _ relyingParty: RelyingParty)
        throws(WebAuthnError) -> String?
    {
        let response = vector.response.response
        let verified = try AssertionVerifier(relyingParty: relyingParty).verify(
            clientDataJSON: try decode(response.clientDataJSON, "clientDataJSON"),
            authenticatorData: try decode(response.authenticatorData, "authenticatorData"),
            signature: try decode(response.signature, "signature"),
            expectedChallenge: try decode(vector.challenge, "challenge"),
            credentialPublicKey: try CredentialPublicKey(
                cose: try decode(vector.credentialPublicKey, "credentialPublicKey")),
            storedSignCount: vector.storedSignCount,
            userVerificationRequired: vector.userVerificationRequired)
        if let expected = vector.expectSignCount, expected != verified.signCount {
            return "reported signCount \(verified.signCount), expected \(expected)"
        }
        return nil
    }

    private static func decode(_ text: String, _ field: String) throws(WebAuthnError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else {
            throw WebAuthnError(
                field == "clientDataJSON" ? .malformedClientData : .malformedAuthenticatorData,
                "\(field) is not base64url")
        }
        return bytes
    }
}
