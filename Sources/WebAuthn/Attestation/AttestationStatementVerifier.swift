/// Dispatches an attestation statement to its format's verification procedure (WebAuthn §7.1 steps 21–22, §8).
package enum AttestationStatementVerifier {
    /// Registered formats (IANA "WebAuthn Attestation Statement Format Identifiers") that are not verified here.
    package static let unverifiableFormats: Set<String> = ["android-safetynet", "compound"]

    /// Verifies `input.statement` for `input.format`, applying `policy` to formats that cannot be verified here.
    package static func verify(_ input: AttestationInput, policy: AttestationPolicy) throws(WebAuthnError)
        -> AttestationResult
    {
        switch input.format {
        case "none":
            // §8.7: the statement is an empty map.
            guard input.statement.mapValue?.isEmpty == true else {
                throw WebAuthnError(.malformedAttestation, "fmt none with a non-empty attStmt")
            }
            return AttestationResult(type: .none, trustPath: [])
        case "packed": return try PackedAttestation.verify(input)
        case "fido-u2f": return try FIDOU2FAttestation.verify(input)
        case "apple": return try AppleAttestation.verify(input)
        case "tpm": return try TPMAttestation.verify(input)
        case "android-key": return try AndroidKeyAttestation.verify(input)
        case let format where unverifiableFormats.contains(format):
            guard policy == .verifiedOrUnverifiable else {
                throw WebAuthnError(
                    .unsupportedAttestationFormat,
                    "attestation format \(format) cannot be verified and the policy requires verification")
            }
            return AttestationResult(type: .unverified, trustPath: [])
        default:
            // §7.1 step 21: the format must be one we know.
            throw WebAuthnError(.unsupportedAttestationFormat, "unknown attestation format \"\(input.format)\"")
        }
    }
}
