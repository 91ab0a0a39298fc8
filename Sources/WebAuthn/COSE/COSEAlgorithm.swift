/// COSE algorithm identifiers (IANA "COSE Algorithms") that credentials and attestation statements may use.
public enum COSEAlgorithm: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// ECDSA with SHA-256 on P-256 (the WebAuthn default).
    case es256 = -7
    /// ECDSA with SHA-384 on P-384.
    case es384 = -35
    /// ECDSA with SHA-512 on P-521.
    case es512 = -36
    /// ECDSA on P-256 with SHA-256, fully specified (RFC 9864).
    case esp256 = -9
    /// ECDSA on P-384 with SHA-384, fully specified (RFC 9864).
    case esp384 = -51
    /// ECDSA on P-521 with SHA-512, fully specified (RFC 9864).
    case esp512 = -52
    /// EdDSA; the curve comes from the key (Ed25519 or Ed448).
    case edDSA = -8
    /// Ed25519, fully specified (RFC 9864).
    case ed25519 = -19
    /// Ed448, fully specified (RFC 9864).
    case ed448 = -53
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = -258
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = -259
    /// RSASSA-PKCS1-v1_5 with SHA-1: only for verifying legacy TPM attestation statements, never for credentials.
    case rs1 = -65535
    /// RSASSA-PSS with SHA-256 and MGF1-SHA-256.
    case ps256 = -37
    /// RSASSA-PSS with SHA-384 and MGF1-SHA-384.
    case ps384 = -38
    /// RSASSA-PSS with SHA-512 and MGF1-SHA-512.
    case ps512 = -39
    /// ML-DSA-44 (FIPS 204), COSE key type AKP.
    case mlDSA44 = -48
    /// ML-DSA-65 (FIPS 204), COSE key type AKP.
    case mlDSA65 = -49
    /// ML-DSA-87 (FIPS 204), COSE key type AKP.
    case mlDSA87 = -50

    /// The IANA name, e.g. `ES256`.
    public var description: String {
        switch self {
        case .es256: "ES256"
        case .es384: "ES384"
        case .es512: "ES512"
        case .esp256: "ESP256"
        case .esp384: "ESP384"
        case .esp512: "ESP512"
        case .edDSA: "EdDSA"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .rs256: "RS256"
        case .rs384: "RS384"
        case .rs512: "RS512"
        case .rs1: "RS1"
        case .ps256: "PS256"
        case .ps384: "PS384"
        case .ps512: "PS512"
        case .mlDSA44: "ML-DSA-44"
        case .mlDSA65: "ML-DSA-65"
        case .mlDSA87: "ML-DSA-87"
        }
    }
}
