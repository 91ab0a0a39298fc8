import CountersignCodec
import Crypto
import CryptoExtras
import Foundation
import X509

/// Verifies a FIDO Metadata Service BLOB (FIDO MDS3 §3.2, "Metadata BLOB object processing rules")
/// against a pinned root, with no network: the JWT's `x5c` chain must lead to the root, the leaf
/// must have signed the JWT (RS256 or ES256), and `nextUpdate` must not be past.
package struct MetadataBLOBVerifier: Sendable {
    /// The root the chain must end in.
    let root: Certificate

    /// A verifier pinned to `rootPEM`; by default FIDO's (GlobalSign Root CA - R3).
    package init(rootPEM: String = FIDOMetadataRoot.pem) throws(MetadataBLOBError) {
        do {
            root = try Certificate(pemEncoded: rootPEM)
        } catch {
            throw MetadataBLOBError("the root is not a PEM certificate: \(error)")
        }
    }

    /// The BLOB's payload once every check holds; `now` is the time the chain and `nextUpdate` are judged at.
    package func verify(_ jwt: String, now: Date) async throws(MetadataBLOBError) -> MetadataBLOB {
        // §3.2 step 4: a JWS in compact serialization.
        let parts = jwt.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
            let payload = Base64URL.decode(String(parts[1])), let signature = Base64URL.decode(String(parts[2]))
        else { throw MetadataBLOBError("the file is not a JWT (three base64url parts)") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            throw MetadataBLOBError("the JWT header is not JSON with alg and x5c")
        }
        // §3.2 step 5: x5u is not followed (no network at run time); x5c is required.
        guard let x5c = header.x5c, !x5c.isEmpty else { throw MetadataBLOBError("the JWT header has no x5c chain") }
        var chain: [Certificate] = []
        for (index, text) in x5c.enumerated() {
            guard let der = Data(base64Encoded: text), let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw MetadataBLOBError("x5c[\(index)] is not a DER certificate")
            }
            chain.append(certificate)
        }
        // §3.2 step 6: the chain must verify up to the pinned root, at `now`.
        var verifier = Verifier(rootCertificates: CertificateStore([root])) { RFC5280Policy(validationTime: now) }
        let result = await verifier.validate(leaf: chain[0], intermediates: CertificateStore(Array(chain.dropFirst())))
        guard case .validCertificate = result else {
            throw MetadataBLOBError("the signing certificate does not chain to the pinned root \(root.subject)")
        }
        // §3.2 step 7: the JWS signature, by the leaf, over `header.payload`.
        let signed = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        guard Self.isValid(signature: signature, over: signed, alg: header.alg, key: chain[0].publicKey) else {
            throw MetadataBLOBError("the JWT signature (\(header.alg)) does not verify with the signing certificate")
        }
        let blob = try MetadataBLOB(payload: payload)
        // §3.2 step 8: a BLOB whose nextUpdate is past is stale; ISO dates compare as text.
        guard Self.isDate(blob.nextUpdate), blob.nextUpdate >= Self.day(now) else {
            throw MetadataBLOBError("the BLOB's nextUpdate \(blob.nextUpdate) is in the past; fetch a newer one")
        }
        return blob
    }

    static func isValid(signature: [UInt8], over data: [UInt8], alg: String, key: Certificate.PublicKey) -> Bool {
        switch alg {
        case "ES256":
            guard let key = P256.Signing.PublicKey(key),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return key.isValidSignature(signature, for: SHA256.hash(data: data))
        case "RS256":
            guard let key = _RSA.Signing.PublicKey(key) else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data),
                padding: .insecurePKCS1v1_5)
        default:
            return false
        }
    }

    /// `YYYY-MM-DD` of `date` in UTC.
    static func day(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) }
    }

    private struct Header: Decodable {
        let alg: String
        let x5c: [String]?
    }
}
