/// What a successful registration tells the relying party to store.
public struct VerifiedRegistration: Sendable {
    /// The credential ID (equal to the response's rawId).
    public let credentialId: [UInt8]
    /// The credential public key as raw COSE bytes, to store and later parse with `CredentialPublicKey(cose:)`.
    public let credentialPublicKey: [UInt8]
    /// The credential's COSE algorithm.
    public let algorithm: COSEAlgorithm
    /// The initial signature counter.
    public let signCount: UInt32
    /// The authenticator model's AAGUID (16 bytes; all zero when the authenticator does not say).
    public let aaguid: [UInt8]
    /// The flags, including backup eligibility and state to store.
    public let flags: AuthenticatorFlags
    /// The attestation statement format, e.g. `none`, `packed`.
    public let attestationFormat: String
    /// Whether the attestation statement was verified for its format (trivially true for `none`).
    public let attestationVerified: Bool
    /// The attestation type the statement conveys.
    public let attestationType: AttestationType
    /// The attestation certificates (x5c, DER, leaf first) for trust decisions the caller may make; empty when none.
    public let attestationTrustPath: [[UInt8]]

    /// Creates a result.
    public init(
        credentialId: [UInt8], credentialPublicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32,
        aaguid: [UInt8], flags: AuthenticatorFlags, attestationFormat: String, attestationVerified: Bool,
        attestationType: AttestationType, attestationTrustPath: [[UInt8]]
    ) {
        self.credentialId = credentialId
        self.credentialPublicKey = credentialPublicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.flags = flags
        self.attestationFormat = attestationFormat
        self.attestationVerified = attestationVerified
        self.attestationType = attestationType
        self.attestationTrustPath = attestationTrustPath
    }
}
