import Crypto
import CryptoExtras
import X509

extension CredentialPublicKey {
    /// A verifier for an attestation certificate's key under the statement's `alg`.
    /// The algorithm must fit the key (ES256 needs P-256 and so on); RS1 is allowed here for legacy TPM statements.
    package init(certificateKey key: Certificate.PublicKey, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        let backing: Backing
        switch algorithm {
        case .es256, .esp256:
            guard let inner = P256.Signing.PublicKey(key) else { throw Self.unfit(algorithm, key) }
            backing = .p256(inner)
        case .es384, .esp384:
            guard let inner = P384.Signing.PublicKey(key) else { throw Self.unfit(algorithm, key) }
            backing = .p384(inner)
        case .es512, .esp512:
            guard let inner = P521.Signing.PublicKey(key) else { throw Self.unfit(algorithm, key) }
            backing = .p521(inner)
        case .rs256, .rs384, .rs512, .rs1, .ps256, .ps384, .ps512:
            guard let inner = _RSA.Signing.PublicKey(key) else { throw Self.unfit(algorithm, key) }
            backing = .rsa(inner)
        case .edDSA, .ed25519:
            guard let inner = Curve25519.Signing.PublicKey(key) else { throw Self.unfit(algorithm, key) }
            backing = .ed25519(inner)
        case .ed448, .mlDSA44, .mlDSA65, .mlDSA87:
            throw WebAuthnError(
                .unsupportedAlgorithm, "attestation certificates with \(algorithm) keys are not supported")
        }
        self.init(algorithm: algorithm, backing: backing)
    }

    private static func unfit(_ algorithm: COSEAlgorithm, _ key: Certificate.PublicKey) -> WebAuthnError {
        WebAuthnError(.attestationFailed, "attestation alg \(algorithm) does not fit the certificate's \(key) key")
    }

    /// Whether this credential key is the same key as a certificate's subject public key
    /// (apple §8.8 and android-key §8.4 require it).
    package func matches(_ key: Certificate.PublicKey) -> Bool {
        switch backing {
        case .p256(let own): P256.Signing.PublicKey(key)?.x963Representation == own.x963Representation
        case .p384(let own): P384.Signing.PublicKey(key)?.x963Representation == own.x963Representation
        case .p521(let own): P521.Signing.PublicKey(key)?.x963Representation == own.x963Representation
        case .rsa(let own): _RSA.Signing.PublicKey(key)?.derRepresentation == own.derRepresentation
        case .ed25519(let own): Curve25519.Signing.PublicKey(key)?.rawRepresentation == own.rawRepresentation
        case .ed448, .mlDSA, .mlDSA65, .mlDSA87: false
        }
    }
}
