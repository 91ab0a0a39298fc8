/// Why a WebAuthn ceremony or a piece of its input was refused: a stable machine `code` and a human `message`.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable machine-readable reasons. The raw values are part of the API: clients and logs match on them.
    public enum Code: String, Sendable, CaseIterable {
        /// clientDataJSON is not a JSON object with the required string members.
        case malformedClientData = "malformed_client_data"
        /// clientDataJSON `type` is not one the call site accepts (`webauthn.create` / `webauthn.get`, and
        /// `payment.get` only where a Secure Payment Confirmation was issued).
        case wrongType = "wrong_type"
        /// A `payment.get` clientDataJSON's `payment` member (rpId, topOrigin, payee, total, instrument)
        /// is missing or differs from what was issued for the challenge.
        case paymentDataMismatch = "payment_data_mismatch"
        /// clientDataJSON `challenge` does not decode to the expected bytes.
        case challengeMismatch = "challenge_mismatch"
        /// clientDataJSON `origin` is not in the relying party's allow-list.
        case originNotAllowed = "origin_not_allowed"
        /// The ceremony ran in a cross-origin iframe (`crossOrigin` true or a `topOrigin`) and that is not allowed.
        case crossOriginRefused = "cross_origin_refused"
        /// authenticatorData's rpIdHash is not SHA-256 of the relying party id.
        case rpIdHashMismatch = "rp_id_hash_mismatch"
        /// The UP (user present) flag is clear.
        case userNotPresent = "user_not_present"
        /// User verification was required and the UV flag is clear.
        case userNotVerified = "user_not_verified"
        /// BS (backup state) is set while BE (backup eligible) is clear.
        case invalidBackupFlags = "invalid_backup_flags"
        /// authenticatorData is truncated, too long, or inconsistent with its flags.
        case malformedAuthenticatorData = "malformed_authenticator_data"
        /// CBOR input is truncated, malformed, or uses an unsupported encoding.
        case malformedCBOR = "malformed_cbor"
        /// A COSE_Key is missing parameters, has the wrong sizes, or mixes a curve with another algorithm.
        case malformedPublicKey = "malformed_public_key"
        /// The COSE algorithm or key type is not one this verifier implements.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// The credential's algorithm was not among those the relying party offered in `pubKeyCredParams`.
        case unexpectedAlgorithm = "unexpected_algorithm"
        /// The assertion signature does not verify with the credential public key.
        case badSignature = "bad_signature"
        /// The signature counter did not rise although one of the counters is non-zero: a possible cloned authenticator.
        case signCountRegression = "sign_count_regression"
        /// The attested credential ID differs from the response's rawId, or is longer than 1023 bytes.
        case credentialIdMismatch = "credential_id_mismatch"
        /// A registration's authenticatorData carries no attested credential data.
        case missingCredentialData = "missing_credential_data"
        /// The attestation object or statement is not shaped as its format requires.
        case malformedAttestation = "malformed_attestation"
        /// The attestation statement was checked and does not hold (signature, certificate, nonce, key match).
        case attestationFailed = "attestation_failed"
        /// The attestation format is unknown, or known but not verifiable here and the policy demands verification.
        case unsupportedAttestationFormat = "unsupported_attestation_format"
    }

    /// The stable machine code.
    public let code: Code
    /// A human-readable reason; not stable, not for matching.
    public let message: String

    /// Creates an error with a code and a reason.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, for logs.
    public var description: String { "\(code.rawValue): \(message)" }
}
