/// What a registration does with attestation statement formats this library cannot verify: registered
/// formats it has no verifier for (android-safetynet, compound). `none` (no statement) is always accepted,
/// unknown formats are always refused, and every format verified here must verify under either policy.
public enum AttestationPolicy: Sendable {
    /// Unverifiable formats are accepted with `attestationVerified == false`: an operator's opt-in.
    case verifiedOrUnverifiable
    /// Only statements that were verified (or `none`) are accepted; unverifiable formats are refused. The default.
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
