import CountersignClient
import CountersignCodec
import Crypto
import Foundation
import SwiftASN1
import Testing
import WebAuthn
import X509

/// packed x5c attestation with certificates made on the spot, to exercise §8.2.1 and the chain check.
@Suite("packed attestation certificates (WebAuthn §8.2.1)")
struct PackedCertificateTests {
    let device = DeviceAuthenticator(rpId: "pay.countersign.test", origin: "https://pay.countersign.test")
    let challenge: [UInt8] = [1, 2, 3, 4]
    let caKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()

    static let caName = try! DistinguishedName {
        CountryName("AA")
        OrganizationName("Countersign")
        CommonName("Test Attestation CA")
    }

    func subject(ou: String) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName("AA")
            OrganizationName("Countersign")
            OrganizationalUnitName(ou)
            CommonName("Test Authenticator")
        }
    }

    func certificate(
        subject: DistinguishedName, key: P256.Signing.PrivateKey, issuerKey: P256.Signing.PrivateKey,
        issuer: DistinguishedName, extensions: Certificate.Extensions
    ) throws -> [UInt8] {
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: Date(),
            notValidAfter: Date() + 3600,
            issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: .init(issuerKey))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    func leaf(ou: String = "Authenticator Attestation", ca: Bool = false, aaguid: [UInt8]? = nil, padding: Int = 0)
        throws -> [UInt8]
    {
        var extensions = try Certificate.Extensions {
            Critical(ca ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority)
        }
        if padding > 0 {
            // A non-critical extension of an unregistered OID, only to make the certificate big.
            try extensions.append(
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 99999, 1], critical: false,
                    value: [UInt8](repeating: 0x41, count: padding)[...]))
        }
        if let aaguid {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: aaguid[...]))
            try extensions.append(
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: serializer.serializedBytes[...]))
        }
        return try certificate(
            subject: try subject(ou: ou), key: leafKey, issuerKey: caKey, issuer: Self.caName, extensions: extensions)
    }

    func rootCertificate() throws -> [UInt8] {
        try certificate(
            subject: Self.caName, key: caKey, issuerKey: caKey, issuer: Self.caName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            })
    }

    /// Registers the device with a packed statement signed by `leafKey` and carrying `x5c`.
    func register(x5c: [[UInt8]]) throws -> Result<VerifiedRegistration, WebAuthnError> {
        let registration = device.makeRegistration(challenge: challenge)
        let authData = try #require(
            try CBORDecoder.decode(registration.attestationObject)[text: "authData"]?.bytesValue)
        let signature = try leafKey.signature(for: authData + SHA256.hash(data: registration.clientDataJSON))
            .derRepresentation
        let object = CBOREncoder.encode(
            .map([
                CBORPair(.text("fmt"), .text("packed")),
                CBORPair(
                    .text("attStmt"),
                    .map([
                        CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes(Array(signature))),
                        CBORPair(.text("x5c"), .array(x5c.map(CBORValue.bytes))),
                    ])),
                CBORPair(.text("authData"), .bytes(authData)),
            ]))
        let verifier = RegistrationVerifier(relyingParty: TestSupport.relyingParty, attestationPolicy: .verifiedOnly)
        return Result { () throws(WebAuthnError) in
            try verifier.verify(
                clientDataJSON: registration.clientDataJSON, attestationObject: object, rawId: device.credentialId,
                expectedChallenge: challenge, userVerificationRequired: false, allowedAlgorithms: [.es256])
        }
    }

    @Test("a conforming leaf, alone or with its issuer, verifies as basic attestation")
    func conforming() throws {
        let alone = try register(x5c: [try leaf()]).get()
        #expect(alone.attestationType == .basic)
        #expect(alone.attestationTrustPath.count == 1)
        #expect(try register(x5c: [try leaf(), try rootCertificate()]).get().attestationTrustPath.count == 2)
        #expect(try register(x5c: [try leaf(aaguid: [UInt8](repeating: 0, count: 16))]).get().attestationVerified)
    }

    @Test("certificate requirements and the chain are enforced")
    func refusals() throws {
        #expect(try register(x5c: [try leaf(ou: "Something Else")]).failure?.code == .attestationFailed)
        #expect(try register(x5c: [try leaf(ca: true)]).failure?.code == .attestationFailed)
        #expect(
            try register(x5c: [try leaf(aaguid: [UInt8](repeating: 1, count: 16))]).failure?.code == .attestationFailed)
        let stranger = PackedCertificateTests() // another CA key under the same name
        #expect(try register(x5c: [try leaf(), try stranger.rootCertificate()]).failure?.code == .attestationFailed)
    }

    @Test(
        "x5c is bounded: at most 5 certificates of at most 8 KB each, refused as malformed before any signature check")
    func chainBounds() throws {
        let root = try rootCertificate()
        // A self-signed root repeated is a chain that verifies link by link: only the bound refuses it.
        #expect(
            try register(x5c: [try leaf()] + Array(repeating: root, count: 4)).get().attestationTrustPath.count == 5)
        #expect(
            try register(x5c: [try leaf()] + Array(repeating: root, count: 5)).failure?.code == .malformedAttestation)
        let big = try leaf(padding: 8200)
        #expect(big.count > 8192)
        #expect(try register(x5c: [big]).failure?.code == .malformedAttestation)
        #expect(try register(x5c: [try leaf(padding: 6000)]).get().attestationVerified)
    }
}
