import CountersignCodec
import SwiftASN1
import X509

/// The x5c handling shared by packed, fido-u2f, apple, tpm and android-key attestation (WebAuthn §8).
/// Trust anchors and validity dates are deliberately not checked: the caller decides trust from the returned chain.
package enum AttestationCertificates {
    /// The AAGUID extension of FIDO attestation certificates (§8.2.1), `id-fido-gen-ce-aaguid`.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    /// Most certificates accepted in x5c: leaf, intermediates and root. Android key attestation chains,
    /// the longest in practice, have four; each one costs a signature check.
    static let maximumChainLength = 5
    /// Largest certificate accepted, in bytes. Attestation certificates are 0.5–2 KB.
    static let maximumCertificateSize = 8192

    /// Parses attStmt.x5c: a non-empty array of DER certificates, leaf first.
    static func parse(_ x5c: CBORValue?) throws(WebAuthnError) -> (certificates: [Certificate], der: [[UInt8]]) {
        guard let items = x5c?.arrayValue, !items.isEmpty else {
            throw WebAuthnError(.malformedAttestation, "x5c is missing or empty")
        }
        guard items.count <= maximumChainLength else {
            throw WebAuthnError(
                .malformedAttestation, "x5c holds \(items.count) certificates, at most \(maximumChainLength) accepted")
        }
        var certificates: [Certificate] = []
        var der: [[UInt8]] = []
        for (index, item) in items.enumerated() {
            guard let bytes = item.bytesValue else {
                throw WebAuthnError(.malformedAttestation, "x5c[\(index)] is not a byte string")
            }
            guard bytes.count <= maximumCertificateSize else {
                throw WebAuthnError(
                    .malformedAttestation,
                    "x5c[\(index)] is \(bytes.count) bytes, at most \(maximumCertificateSize) accepted")
            }
            do {
                certificates.append(try Certificate(derEncoded: bytes))
            } catch {
                throw WebAuthnError(
                    .malformedAttestation, "x5c[\(index)] is not a supported X.509 certificate: \(error)")
            }
            der.append(bytes)
        }
        try verifyChain(certificates)
        return (certificates, der)
    }

    /// Each certificate must name the next as its issuer and carry a signature that the next one's key verifies.
    static func verifyChain(_ certificates: [Certificate]) throws(WebAuthnError) {
        for index in certificates.indices.dropLast() {
            let certificate = certificates[index]
            let issuer = certificates[index + 1]
            guard certificate.issuer == issuer.subject,
                issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
            else {
                throw WebAuthnError(.attestationFailed, "x5c[\(index)] is not signed by x5c[\(index + 1)]")
            }
        }
    }

    /// Verifies an attestation signature with a certificate's key under the statement's COSE `alg`.
    static func verify(signature: [UInt8], over data: [UInt8], by certificate: Certificate, algorithm: COSEAlgorithm)
        throws(WebAuthnError)
    {
        let key = try CredentialPublicKey(certificateKey: certificate.publicKey, algorithm: algorithm)
        guard key.verify(signature: signature, over: data) else {
            throw WebAuthnError(
                .attestationFailed, "attestation signature does not verify with the attestation certificate")
        }
    }

    /// §8.2.1 / §8.3.1: Basic Constraints, when present, must say "not a CA".
    static func requireNotCA(_ certificate: Certificate) throws(WebAuthnError) {
        let constraints: BasicConstraints?
        do { constraints = try certificate.extensions.basicConstraints } catch {
            throw WebAuthnError(.attestationFailed, "attestation certificate has malformed Basic Constraints")
        }
        if case .isCertificateAuthority = constraints {
            throw WebAuthnError(.attestationFailed, "attestation certificate is a CA certificate")
        }
    }

    /// §8.2.1 / §8.3.1: if the certificate carries the AAGUID extension, it must be non-critical and equal the authenticator's AAGUID.
    static func requireMatchingAAGUID(_ certificate: Certificate, _ aaguid: [UInt8]) throws(WebAuthnError) {
        guard let ext = certificate.extensions[oid: aaguidExtension] else { return }
        guard !ext.critical else {
            throw WebAuthnError(.attestationFailed, "the AAGUID extension must not be critical")
        }
        let value: ASN1OctetString
        do { value = try ASN1OctetString(derEncoded: ext.value) } catch {
            throw WebAuthnError(.attestationFailed, "the AAGUID extension is not an OCTET STRING")
        }
        guard Array(value.bytes) == aaguid else {
            throw WebAuthnError(.attestationFailed, "the certificate's AAGUID differs from authenticatorData's")
        }
    }

    /// The statement's `alg` as a known COSE algorithm.
    static func algorithm(_ statement: CBORValue) throws(WebAuthnError) -> COSEAlgorithm {
        guard let value = statement[text: "alg"]?.intValue else {
            throw WebAuthnError(.malformedAttestation, "attStmt has no integer alg")
        }
        guard let algorithm = COSEAlgorithm(rawValue: Int(value)) else {
            throw WebAuthnError(.unsupportedAlgorithm, "attestation algorithm \(value) is not supported")
        }
        return algorithm
    }

    /// The statement's `sig` byte string.
    static func signature(_ statement: CBORValue) throws(WebAuthnError) -> [UInt8] {
        guard let sig = statement[text: "sig"]?.bytesValue else {
            throw WebAuthnError(.malformedAttestation, "attStmt has no sig byte string")
        }
        return sig
    }
}
