import CountersignAPI
import WebAuthn

extension ErrorCode {
    /// The code a WebAuthn refusal is sent with: the verifier's own, which the API lists too.
    init(_ code: WebAuthnError.Code) {
        self =
            switch code {
            case .malformedClientData: .malformedClientData
            case .wrongType: .wrongType
            case .paymentDataMismatch: .paymentDataMismatch
            case .challengeMismatch: .challengeMismatch
            case .originNotAllowed: .originNotAllowed
            case .crossOriginRefused: .crossOriginRefused
            case .rpIdHashMismatch: .rpIdHashMismatch
            case .userNotPresent: .userNotPresent
            case .userNotVerified: .userNotVerified
            case .invalidBackupFlags: .invalidBackupFlags
            case .malformedAuthenticatorData: .malformedAuthenticatorData
            case .malformedCBOR: .malformedCBOR
            case .malformedPublicKey: .malformedPublicKey
            case .unsupportedAlgorithm: .unsupportedAlgorithm
            case .unexpectedAlgorithm: .unexpectedAlgorithm
            case .badSignature: .badSignature
            case .signCountRegression: .signCountRegression
            case .credentialIdMismatch: .credentialIdMismatch
            case .missingCredentialData: .missingCredentialData
            case .malformedAttestation: .malformedAttestation
            case .attestationFailed: .attestationFailed
            case .unsupportedAttestationFormat: .unsupportedAttestationFormat
            }
    }
}

extension APIError {
    /// A WebAuthn refusal under its own code, with the verifier's message or `message` where that
    /// would tell an attacker which check failed.
    init(_ refusal: WebAuthnError, message: String? = nil) {
        self.init(ErrorCode(refusal.code), message ?? refusal.message)
    }
}
