import CountersignCodec

/// Entry points for the libFuzzer targets in `Fuzz/`, a separate package that cannot see `package` symbols.
/// Each runs one parser on untrusted bytes and discards the outcome: a fuzzer only looks for traps, leaks and hangs.
/// Not API: reachable only through `@_spi(Fuzzing) import WebAuthn`.
@_spi(Fuzzing)
public enum FuzzEntryPoints {
    /// The relying party the registration target verifies for: the W3C vectors' `example.org`.
    static let relyingParty = RelyingParty(id: "example.org", name: "example.org", origins: ["https://example.org"])

    /// `CBORDecoder.decode`, then a re-encode whose decoding must give the same value.
    public static func cbor(_ bytes: [UInt8]) {
        guard let value = try? CBORDecoder.decode(bytes) else { return }
        let reencoded = CBOREncoder.encode(value)
        guard let again = try? CBORDecoder.decode(reencoded) else { fatalError("re-encoded CBOR does not decode") }
        precondition(again == value || reencoded == CBOREncoder.encode(again), "CBOR round trip changed the value")
    }

    /// authenticatorData, including attested credential data and extensions.
    public static func authenticatorData(_ bytes: [UInt8]) {
        guard let parsed = try? AuthenticatorData(bytes) else { return }
        if let attested = parsed.attestedCredentialData { _ = try? CredentialPublicKey(coseKey: attested.publicKey) }
    }

    /// clientDataJSON, then the ceremony checks against a fixed relying party.
    public static func clientData(_ bytes: [UInt8]) {
        guard let parsed = try? CollectedClientData(json: bytes) else { return }
        _ = try? parsed.check(type: "webauthn.get", challenge: [1, 2, 3], relyingParty: relyingParty)
    }

    /// A DER ECDSA signature for each curve size.
    public static func derSignature(_ bytes: [UInt8]) {
        for size in [32, 48, 66] {
            if let raw = ECDSASignatureDER.raw(bytes, coordinateSize: size) {
                precondition(raw.count == 2 * size, "r || s of the wrong size")
            }
        }
    }

    /// A COSE_Key, then a signature check with it: `keyLength` (2 bytes, big-endian), key, signature.
    public static func coseKeyAndSignature(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let keyLength = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count - 2 >= keyLength else { return }
        let key = Array(bytes[2..<2 + keyLength])
        let signature = Array(bytes[(2 + keyLength)...])
        guard let parsed = try? CredentialPublicKey(cose: key) else { return }
        _ = parsed.verify(signature: signature, over: [0x61, 0x62, 0x63])
    }

    /// A whole registration: `clientDataLength` (2 bytes, big-endian), clientDataJSON, attestationObject.
    /// The challenge and rawId are taken from the input itself, so mutations reach the attestation statement checks.
    public static func registration(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let clientLength = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count - 2 >= clientLength else { return }
        let clientDataJSON = Array(bytes[2..<2 + clientLength])
        let attestationObject = Array(bytes[(2 + clientLength)...])
        let challenge =
            (try? CollectedClientData(json: clientDataJSON)).flatMap { Base64URL.decode($0.challenge) } ?? []
        let rawId =
            (try? AttestationObject(attestationObject))?.authenticatorData.attestedCredentialData?.credentialId ?? []
        // The permissive policy: it reaches every path the strict one does, and the acceptance of unverifiable formats.
        _ = try? RegistrationVerifier(relyingParty: relyingParty, attestationPolicy: .verifiedOrUnverifiable).verify(
            clientDataJSON: clientDataJSON, attestationObject: attestationObject, rawId: rawId,
            expectedChallenge: challenge,
            userVerificationRequired: false, allowedAlgorithms: Set(COSEAlgorithm.allCases))
    }
}
