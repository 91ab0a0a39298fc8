import CountersignAPI
import WebAuthn

/// An AuthenticationResponseJSON with its binary members decoded and its challenge read, or a 400
/// naming the field that is malformed. The verifier then checks the whole of it.
struct DecodedAssertion: Sendable {
    /// The credential id, base64url (it equals the body's `id`).
    let credentialId: String
    let clientData: [UInt8]
    let authenticatorData: [UInt8]
    let signature: [UInt8]
    /// The `challenge` member of clientDataJSON, to find what it answers.
    let challenge: String

    init(_ body: AuthenticationResponseJSON) throws(APIError) {
        guard body.type == "public-key" else { throw APIError(.invalidType, "type must be public-key.") }
        let rawId = try BiometricService.decode(body.rawId, field: "rawId")
        credentialId = Base64URL.encode(rawId)
        guard body.id == credentialId else { throw APIError(.idMismatch, "id must be the base64url of rawId.") }
        clientData = try BiometricService.decode(body.response.clientDataJSON, field: "response.clientDataJSON")
        authenticatorData = try BiometricService.decode(
            body.response.authenticatorData, field: "response.authenticatorData")
        signature = try BiometricService.decode(body.response.signature, field: "response.signature")
        challenge = try BiometricService.challenge(in: clientData)
    }
}
