import CountersignCodec
import Crypto
import SwiftASN1
import X509

/// The `apple` anonymous attestation statement format (WebAuthn §8.8): `{x5c}`.
enum AppleAttestation {
    /// The nonce extension of Apple's credential certificates.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let (certificates, der) = try AttestationCertificates.parse(input.statement[text: "x5c"])
        let credentialCertificate = certificates[0]
        // §8.8 steps 2–3: nonce = SHA-256(authenticatorData || clientDataHash).
        let nonce = Array(SHA256.hash(data: input.signedData))
        // §8.8 step 4: the certificate's extension carries the nonce.
        guard let ext = credentialCertificate.extensions[oid: nonceExtension] else {
            throw WebAuthnError(.attestationFailed, "apple credential certificate has no nonce extension")
        }
        guard let certified = try? certifiedNonce(ext.value), ConstantTime.equal(certified, nonce) else {
            throw WebAuthnError(
                .attestationFailed,
                "apple credential certificate nonce differs from SHA-256(authData || clientDataHash)")
        }
        // §8.8 step 5: the credential key is the certificate's subject key.
        guard input.credentialKey.matches(credentialCertificate.publicKey) else {
            throw WebAuthnError(
                .attestationFailed, "apple credential certificate key differs from the credential public key")
        }
        return AttestationResult(type: .anonymizationCA, trustPath: der)
    }

    /// The extension value is `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    private static func certifiedNonce(_ value: ArraySlice<UInt8>) throws -> [UInt8] {
        let root = try DER.parse(value)
        guard case .constructed(let children) = root.content, let tagged = children.first(where: { _ in true }),
            tagged.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific),
            case .constructed(let inner) = tagged.content, let octets = inner.first(where: { _ in true })
        else { throw WebAuthnError(.attestationFailed, "nonce extension is not SEQUENCE { [1] OCTET STRING }") }
        return Array(try ASN1OctetString(derEncoded: octets).bytes)
    }
}
