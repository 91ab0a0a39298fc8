import CountersignCodec
import Crypto

/// Verifies registration ceremonies (WebAuthn §7.1) for one relying party.
public struct RegistrationVerifier: Sendable {
    /// The relying party credentials are created for.
    public let relyingParty: RelyingParty
    /// What to do with attestation formats that cannot be verified here.
    public let attestationPolicy: AttestationPolicy

    /// Creates a verifier. By default only attestation statements that verify (or `none`) are accepted.
    public init(relyingParty: RelyingParty, attestationPolicy: AttestationPolicy = .verifiedOnly) {
        self.relyingParty = relyingParty
        self.attestationPolicy = attestationPolicy
    }

    /// WebAuthn §7.1 in full, except trust in attestation roots (§7.1 steps 23–24) and the caller's own
    /// check that the credential ID is new. Throws `WebAuthnError` otherwise.
    ///
    /// `allowedAlgorithms` are the algorithms offered in the creation options' `pubKeyCredParams`; a
    /// credential with any other algorithm is refused with `unexpectedAlgorithm` (§7.1 step 20).
    public func verify(
        clientDataJSON: [UInt8], attestationObject: [UInt8], rawId: [UInt8],
        expectedChallenge: [UInt8], userVerificationRequired: Bool, allowedAlgorithms: Set<COSEAlgorithm>
    ) throws(WebAuthnError) -> VerifiedRegistration {
        // §7.1 steps 5–10: clientDataJSON, type, challenge, origin, topOrigin.
        let clientData = try CollectedClientData(json: clientDataJSON)
        try clientData.check(type: "webauthn.create", challenge: expectedChallenge, relyingParty: relyingParty)
        // §7.1 step 11: hash of clientDataJSON.
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
        // §7.1 step 12: decode the attestation object into fmt, authData and attStmt.
        let object = try AttestationObject(attestationObject)
        let authData = object.authenticatorData
        // §7.1 steps 13–17: rpIdHash, UP, UV, BE/BS.
        try Ceremony.checkRPIDHash(authData, relyingParty)
        try Ceremony.checkUserFlags(authData.flags, userVerificationRequired: userVerificationRequired)

        guard let attested = authData.attestedCredentialData else {
            throw WebAuthnError(
                .missingCredentialData, "authenticatorData has no attested credential data (AT flag clear)")
        }
        // §7.1 step 25: credential IDs longer than 1023 bytes are refused.
        guard attested.credentialId.count <= 1023 else {
            throw WebAuthnError(
                .credentialIdMismatch, "credential ID is \(attested.credentialId.count) bytes, at most 1023 allowed")
        }
        guard ConstantTime.equal(attested.credentialId, rawId) else {
            throw WebAuthnError(.credentialIdMismatch, "attested credential ID differs from rawId")
        }
        // §7.1 step 19: the credential key must use an algorithm we can verify.
        let credentialKey = try CredentialPublicKey(coseKey: attested.publicKey)
        // §7.1 step 20: …and one the relying party offered in pubKeyCredParams.
        guard allowedAlgorithms.contains(credentialKey.algorithm) else {
            throw WebAuthnError(
                .unexpectedAlgorithm,
                "credential algorithm \(credentialKey.algorithm) was not offered in pubKeyCredParams")
        }

        // §7.1 steps 21–22: verify the attestation statement for its format.
        let statement = AttestationInput(
            format: object.format, statement: object.statement, authData: authData,
            clientDataHash: clientDataHash, credentialKey: credentialKey, credentialKeyCOSE: attested.publicKey)
        let result = try AttestationStatementVerifier.verify(statement, policy: attestationPolicy)

        return VerifiedRegistration(
            credentialId: attested.credentialId, credentialPublicKey: attested.publicKeyBytes,
            algorithm: credentialKey.algorithm, signCount: authData.signCount, aaguid: attested.aaguid,
            flags: authData.flags, attestationFormat: object.format, attestationVerified: result.type != .unverified,
            attestationType: result.type, attestationTrustPath: result.trustPath)
    }
}
