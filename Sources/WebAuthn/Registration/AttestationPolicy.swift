/// What a registration does with attestation statement formats this library cannot verify.
public enum AttestationPolicy: Sendable {
    /// Formats that are verified here must verify; known formats that cannot be verified here
    /// (android-safetynet, compound) are accepted with `attestationVerified == false`.
    case verifiedOrUnverifiable
    /// Only statements that were verified are accepted; unverifiable formats are refused.
    case verifiedOnly
}

/// The attestation type a verified statement conveys (WebAuthn §6.5.3). Trust in the certificates is not evaluated here.
public enum AttestationType: String, Sendable {
    /// Format `none`: no attestation.
    case none
    /// Self attestation: signed by the credential key itself.
    case selfAttestation = "self"
    /// Basic (or AttCA) attestation: signed by an attestation certificate, whose chain verified up to its last certificate.
    case basic
    /// Attestation CA: a TPM attestation identity key certified by a CA.
    case attestationCA = "attca"
    /// Anonymization CA: a per-credential certificate (Apple).
    case anonymizationCA = "anonca"
    /// The statement was not verified: see `AttestationPolicy.verifiedOrUnverifiable`.
    case unverified
}
