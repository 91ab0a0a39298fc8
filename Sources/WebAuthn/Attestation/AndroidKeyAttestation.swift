import CountersignCodec
import SwiftASN1
import X509

/// The `android-key` attestation statement format (WebAuthn §8.4): `{alg, sig, x5c}`.
enum AndroidKeyAttestation {
    /// The Android key attestation extension, whose value is a KeyDescription.
    static let keyDescriptionExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]
    // AuthorizationList tags (Android KeyMint): purpose [1], allApplications [600], origin [702].
    static let purposeTag: UInt = 1, allApplicationsTag: UInt = 600, originTag: UInt = 702
    static let purposeSign: Int = 2 // KM_PURPOSE_SIGN
    static let originGenerated: Int = 0 // KM_ORIGIN_GENERATED

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let algorithm = try AttestationCertificates.algorithm(input.statement)
        let signature = try AttestationCertificates.signature(input.statement)
        let (certificates, der) = try AttestationCertificates.parse(input.statement[text: "x5c"])
        let leaf = certificates[0]
        // §8.4 step 2: the leaf certificate signed authenticatorData || clientDataHash…
        try AttestationCertificates.verify(signature: signature, over: input.signedData, by: leaf, algorithm: algorithm)
        // …and certifies the credential public key.
        guard input.credentialKey.matches(leaf.publicKey) else {
            throw WebAuthnError(
                .attestationFailed, "android-key certificate key differs from the credential public key")
        }
        guard let ext = leaf.extensions[oid: keyDescriptionExtension] else {
            throw WebAuthnError(.attestationFailed, "android-key certificate has no key description extension")
        }
        let description: KeyDescription
        do { description = try KeyDescription(ext.value) } catch {
            throw WebAuthnError(.attestationFailed, "android-key key description is malformed")
        }
        // §8.4 step 3: attestationChallenge is clientDataHash.
        guard ConstantTime.equal(description.challenge, input.clientDataHash) else {
            throw WebAuthnError(.attestationFailed, "android-key attestationChallenge is not clientDataHash")
        }
        // §8.4 step 3: the key must be scoped to this RP, not to all applications…
        let lists = [description.softwareEnforced, description.teeEnforced]
        guard !lists.contains(where: { $0.keys.contains(allApplicationsTag) }) else {
            throw WebAuthnError(.attestationFailed, "android-key key is usable by all applications")
        }
        // …generated in the keystore and usable for signing; taken from the union of both lists.
        let origins = lists.compactMap { $0[originTag] }.flatMap { $0 }
        guard !origins.isEmpty, origins.allSatisfy({ $0 == originGenerated }) else {
            throw WebAuthnError(.attestationFailed, "android-key key origin is not KM_ORIGIN_GENERATED")
        }
        guard lists.contains(where: { $0[purposeTag]?.contains(purposeSign) == true }) else {
            throw WebAuthnError(.attestationFailed, "android-key key purpose does not include KM_PURPOSE_SIGN")
        }
        return AttestationResult(type: .basic, trustPath: der)
    }

    /// The parts of KeyDescription WebAuthn checks: attestationChallenge (5th field), softwareEnforced (7th) and teeEnforced (8th).
    struct KeyDescription {
        let challenge: [UInt8]
        /// Integer values of each AuthorizationList entry, by context-specific tag.
        let softwareEnforced: [UInt: [Int]]
        let teeEnforced: [UInt: [Int]]

        init(_ value: ArraySlice<UInt8>) throws {
            guard case .constructed(let nodes) = try DER.parse(value).content else {
                throw ASN1Error.invalidASN1Object(reason: "not a SEQUENCE")
            }
            let fields = Array(nodes)
            guard fields.count >= 8 else {
                throw ASN1Error.invalidASN1Object(reason: "KeyDescription has \(fields.count) fields")
            }
            challenge = Array(try ASN1OctetString(derEncoded: fields[4]).bytes)
            softwareEnforced = try Self.authorizationList(fields[6])
            teeEnforced = try Self.authorizationList(fields[7])
        }

        /// Each `[tag] EXPLICIT` entry, with the INTEGER or SET OF INTEGER inside flattened to integers
        /// (other entry types such as NULL or OCTET STRING yield an empty list).
        static func authorizationList(_ node: ASN1Node) throws -> [UInt: [Int]] {
            guard case .constructed(let entries) = node.content else {
                throw ASN1Error.invalidASN1Object(reason: "AuthorizationList")
            }
            var result: [UInt: [Int]] = [:]
            for entry in entries where entry.identifier.tagClass == .contextSpecific {
                var integers: [Int] = []
                if case .constructed(let inner) = entry.content {
                    for item in inner { integers += try Self.integers(item) }
                }
                result[entry.identifier.tagNumber] = integers
            }
            return result
        }

        private static func integers(_ node: ASN1Node) throws -> [Int] {
            switch node.identifier {
            case .integer: return [try Int(derEncoded: node)]
            case .enumerated: return [try Int(derEncoded: node, withIdentifier: .enumerated)]
            case .set:
                guard case .constructed(let members) = node.content else { return [] }
                return try members.flatMap { try integers($0) }
            default: return []
            }
        }
    }
}
