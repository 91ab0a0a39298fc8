import Crypto
import CryptoExtras
import Foundation

/// A parsed COSE_Key, ready to verify signatures: parse once, verify many (the server caches it).
public struct CredentialPublicKey: Sendable {
    /// The key's COSE algorithm, which fixes the signature scheme and hash.
    public let algorithm: COSEAlgorithm
    /// The parsed key.
    package let backing: Backing

    /// The concrete key behind a `CredentialPublicKey`.
    package enum Backing: Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case ed448(Ed448PublicKey)
        case mlDSA(MLDSAPublicKey)
        case mlDSA65(MLDSA65.PublicKey)
        case mlDSA87(MLDSA87.PublicKey)
    }

    /// Wraps an already parsed key.
    package init(algorithm: COSEAlgorithm, backing: Backing) {
        self.algorithm = algorithm
        self.backing = backing
    }

    /// Parses a CBOR-encoded COSE_Key (WebAuthn §6.5.1.1) and checks that its algorithm fits its key type and curve.
    public init(cose: [UInt8]) throws(WebAuthnError) {
        try self.init(coseKey: try CBORDecoder.decode(cose))
    }

    /// Whether `signature` is this key's signature over `data`.
    /// ECDSA signatures are DER-encoded, as WebAuthn prescribes (§6.5.5); EdDSA, RSA and ML-DSA ones are raw.
    public func verify(signature: some DataProtocol, over data: some DataProtocol) -> Bool {
        switch backing {
        case .p256(let key):
            guard let raw = ECDSASignatureDER.raw(signature, coordinateSize: 32),
                let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p384(let key):
            guard let raw = ECDSASignatureDER.raw(signature, coordinateSize: 48),
                let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p521(let key):
            guard let raw = ECDSASignatureDER.raw(signature, coordinateSize: 66),
                let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rsa(let key):
            return verifyRSA(key, signature: _RSA.Signing.RSASignature(rawRepresentation: signature), data: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .ed448(let key):
            return key.isValidSignature(Array(signature), for: Array(data))
        case .mlDSA(let key):
            return key.isValidSignature(Array(signature), for: Array(data))
        case .mlDSA65(let key):
            return key.isValidSignature(signature, for: data)
        case .mlDSA87(let key):
            return key.isValidSignature(signature, for: data)
        }
    }

    private func verifyRSA(_ key: _RSA.Signing.PublicKey, signature: _RSA.Signing.RSASignature, data: some DataProtocol)
        -> Bool
    {
        switch algorithm {
        case .rs256: key.isValidSignature(signature, for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs384: key.isValidSignature(signature, for: SHA384.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs512: key.isValidSignature(signature, for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs1: key.isValidSignature(signature, for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
        case .ps256: key.isValidSignature(signature, for: SHA256.hash(data: data), padding: .PSS)
        case .ps384: key.isValidSignature(signature, for: SHA384.hash(data: data), padding: .PSS)
        case .ps512: key.isValidSignature(signature, for: SHA512.hash(data: data), padding: .PSS)
        default: false
        }
    }
}
