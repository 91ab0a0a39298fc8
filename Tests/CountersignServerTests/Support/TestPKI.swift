import CountersignCodec
import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import X509

/// A certificate and its key, built for a test: a root, an intermediate or a leaf.
struct TestIdentity {
    let key: P256.Signing.PrivateKey
    let certificate: Certificate

    var der: [UInt8] { Self.der(certificate) }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    var pem: String { try! certificate.serializeAsPEM().pemString }

    /// A self-signed root CA.
    static func root(_ name: String) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let subject = try Self.name(name)
        return TestIdentity(
            key: key,
            certificate: try Self.certificate(
                subject: subject, key: key, issuer: subject, issuerKey: key, extensions: Self.caExtensions()))
    }

    /// A CA or leaf certificate issued by this one. A leaf for packed attestation carries the subject
    /// the format requires (OU "Authenticator Attestation") and, when given, the AAGUID extension.
    func issue(_ name: String, ca: Bool, aaguid: [UInt8]? = nil, validFor: TimeInterval = 86_400)
        throws -> TestIdentity
    {
        let key = P256.Signing.PrivateKey()
        var extensions: Certificate.Extensions
        if ca {
            extensions = try Self.caExtensions()
        } else {
            extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
            }
        }
        if let aaguid {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: aaguid[...]))
            try extensions.append(
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: serializer.serializedBytes[...]))
        }
        return TestIdentity(
            key: key,
            certificate: try Self.certificate(
                subject: try Self.name(name, attestation: !ca), key: key, issuer: certificate.subject,
                issuerKey: self.key,
                extensions: extensions, validFor: validFor))
    }

    static func caExtensions() throws -> Certificate.Extensions {
        try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
    }

    static func name(_ commonName: String, attestation: Bool = false) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName("NL")
            OrganizationName("Countersign Tests")
            if attestation { OrganizationalUnitName("Authenticator Attestation") }
            CommonName(commonName)
        }
    }

    static func certificate(
        subject: DistinguishedName, key: P256.Signing.PrivateKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, extensions: Certificate.Extensions, validFor: TimeInterval = 86_400
    ) throws -> Certificate {
        let now = Date()
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3_600, notValidAfter: now + validFor, issuer: issuer, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(issuerKey))
    }
}

/// A FIDO metadata BLOB signed the way the service signs one: ES256, the chain in `x5c`.
enum TestMetadataBLOB {
    /// One entry: an AAGUID, its status reports (status, effective date) and its attestation roots.
    struct Entry {
        var aaguid: String
        var statuses: [(String, String)] = [("FIDO_CERTIFIED", "2024-01-01")]
        var roots: [[UInt8]] = []
    }

    static func payload(number: Int = 7, nextUpdate: String, entries: [Entry]) -> [UInt8] {
        let object: [String: Any] = [
            "legalHeader": "Test metadata, no warranty.", "no": number, "nextUpdate": nextUpdate,
            "entries": entries.map { entry in
                [
                    "aaguid": entry.aaguid,
                    "metadataStatement": [
                        "description": "Test authenticator \(entry.aaguid)",
                        "attestationRootCertificates": entry.roots.map { Data($0).base64EncodedString() },
                    ] as [String: Any],
                    "statusReports": entry.statuses.map { ["status": $0.0, "effectiveDate": $0.1] },
                    "timeOfLastStatusChange": entry.statuses.last?.1 ?? "",
                ] as [String: Any]
            },
        ]
        return Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// The compact JWS of `payload`, signed by `signer` with `chain` (leaf first) in x5c.
    static func jwt(payload: [UInt8], signer: P256.Signing.PrivateKey, chain: [[UInt8]]) throws -> String {
        try jwt(payload: payload, alg: "ES256", chain: chain) { Array(try signer.signature(for: $0).rawRepresentation) }
    }

    /// The same signed RS256 (RSASSA-PKCS1-v1_5, SHA-256), as the FIDO service signs its BLOB.
    static func jwt(payload: [UInt8], signer: _RSA.Signing.PrivateKey, chain: [[UInt8]]) throws -> String {
        try jwt(payload: payload, alg: "RS256", chain: chain) {
            Array(try signer.signature(for: $0, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    static func jwt(payload: [UInt8], alg: String, chain: [[UInt8]], sign: ([UInt8]) throws -> [UInt8]) throws
        -> String
    {
        let header: [String: Any] = [
            "alg": alg, "typ": "JWT", "x5c": chain.map { Data($0).base64EncodedString() },
        ]
        let signingInput =
            Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))) + "."
            + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(try sign(Array(signingInput.utf8)))
    }

    /// Today plus `days` in the BLOB's date form.
    static func date(days: Int) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date() + TimeInterval(days) * 86_400)
    }
}
