import SwiftASN1
import X509

/// The `packed` attestation statement format (WebAuthn §8.2): `{alg, sig, x5c?}`.
enum PackedAttestation {
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let statement = input.statement
        let algorithm = try AttestationCertificates.algorithm(statement)
        let signature = try AttestationCertificates.signature(statement)
        if statement[text: "ecdaaKeyId"] != nil {
            throw WebAuthnError(
                .unsupportedAttestationFormat, "ECDAA attestation was removed from WebAuthn and is not supported")
        }
        guard statement[text: "x5c"] != nil else {
            // §8.2 self attestation: alg equals the credential key's, and the credential key signed.
            guard algorithm == input.credentialKey.algorithm else {
                throw WebAuthnError(
                    .attestationFailed,
                    "self attestation alg \(algorithm) differs from the credential's \(input.credentialKey.algorithm)")
            }
            guard input.credentialKey.verify(signature: signature, over: input.signedData) else {
                throw WebAuthnError(
                    .attestationFailed, "self attestation signature does not verify with the credential key")
            }
            return AttestationResult(type: .selfAttestation, trustPath: [])
        }
        // §8.2 x5c: the attestation certificate signed authenticatorData || clientDataHash.
        let (certificates, der) = try AttestationCertificates.parse(statement[text: "x5c"])
        let leaf = certificates[0]
        try AttestationCertificates.verify(signature: signature, over: input.signedData, by: leaf, algorithm: algorithm)
        try requirements(leaf)
        try AttestationCertificates.requireMatchingAAGUID(leaf, input.authData.attestedCredentialData?.aaguid ?? [])
        return AttestationResult(type: .basic, trustPath: der)
    }

    /// §8.2.1 packed attestation statement certificate requirements.
    static func requirements(_ certificate: Certificate) throws(WebAuthnError) {
        guard certificate.version == .v3 else { throw failed("is not X.509 version 3") }
        let subject = attributes(certificate.subject)
        // Subject-C, Subject-O, Subject-CN present; Subject-OU the literal "Authenticator Attestation".
        typealias Attribute = ASN1ObjectIdentifier.RDNAttributeType
        let required: [(ASN1ObjectIdentifier, String)] = [
            (Attribute.countryName, "C"), (Attribute.organizationName, "O"), (Attribute.commonName, "CN"),
        ]
        for (oid, name) in required where subject[oid]?.isEmpty != false {
            throw failed("has no Subject-\(name)")
        }
        guard subject[Attribute.organizationalUnitName] == ["Authenticator Attestation"] else {
            throw failed("Subject-OU is not \"Authenticator Attestation\"")
        }
        try AttestationCertificates.requireNotCA(certificate)
    }

    /// The subject's attribute values by type.
    static func attributes(_ name: DistinguishedName) -> [ASN1ObjectIdentifier: [String]] {
        var values: [ASN1ObjectIdentifier: [String]] = [:]
        for rdn in name {
            for attribute in rdn {
                values[attribute.type, default: []].append(String(attribute.value) ?? "")
            }
        }
        return values
    }

    private static func failed(_ reason: String) -> WebAuthnError {
        WebAuthnError(.attestationFailed, "packed attestation certificate " + reason)
    }
}
