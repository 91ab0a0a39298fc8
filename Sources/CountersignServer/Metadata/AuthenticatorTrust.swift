import CountersignAPI
import WebAuthn
import X509

/// What a registration's attestation proves about the authenticator model, judged against the
/// imported FIDO metadata (WebAuthn §7.1 steps 23–24: trust in the attestation).
enum AuthenticatorTrust {
    /// Refuses a model whose latest status report says it is compromised, or an attestation chain
    /// that does not lead to one of the model's metadata roots. Returns whether the AAGUID is
    /// attested: a certificate chain anchored in a root the metadata names for that AAGUID.
    /// Anything less (`none`, self attestation, a chain with no metadata to anchor it) is a claim.
    static func evaluate(_ verified: VerifiedRegistration, metadata: AuthenticatorMetadata?) throws(APIError) -> Bool {
        guard let metadata else { return false }
        // FIDO MDS3 §3.1.4: these statuses mean keys of the model can no longer be trusted. A
        // refusal may rest on a claimed AAGUID: claiming a revoked model gains nothing.
        if metadata.isCompromised, let status = metadata.latestStatus?.status {
            throw APIError(
                .authenticatorCompromised,
                "This authenticator model (\(metadata.aaguid)) is reported \(status) by the FIDO Metadata Service; use another key."
            )
        }
        let certified: Set<AttestationType> = [.basic, .attestationCA, .anonymizationCA]
        guard certified.contains(verified.attestationType), let last = verified.attestationTrustPath.last,
            !metadata.attestationRootCertificates.isEmpty
        else { return false }
        // WebAuthn §7.1 step 24: the trust path must end in (or at) one of the model's roots. The
        // verifier already checked each certificate of x5c against the next.
        guard let top = try? Certificate(derEncoded: last) else { return false }
        let anchored = metadata.attestationRootCertificates.contains { der in
            guard let root = try? Certificate(derEncoded: der) else { return false }
            return root == top
                || (top.issuer == root.subject && root.publicKey.isValidSignature(top.signature, for: top))
        }
        guard anchored else {
            throw APIError(
                .attestationUntrusted,
                "The attestation does not chain to a root the FIDO Metadata Service lists for this authenticator model."
            )
        }
        return true
    }
}
