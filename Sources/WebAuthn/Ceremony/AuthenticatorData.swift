import CountersignCodec

/// Parsed authenticatorData (WebAuthn §6.1): rpIdHash, flags, signCount, then optional
/// attested credential data and extensions. Every length is checked; nothing may trail.
package struct AuthenticatorData: Sendable {
    /// The bytes everything below points into.
    package let raw: [UInt8]
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    package var rpIdHash: ArraySlice<UInt8> { raw[0..<32] }
    /// The flags byte.
    package let flags: AuthenticatorFlags
    /// The signature counter, big-endian in the data.
    package let signCount: UInt32
    /// Present when the AT flag is set (registrations).
    package let attestedCredentialData: AttestedCredentialData?
    /// The extension outputs map, present when the ED flag is set.
    package let extensions: CBORValue?

    /// Fixed prefix: rpIdHash (32) + flags (1) + signCount (4).
    package static let minimumLength = 37

    /// Parses authenticatorData.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= Self.minimumLength else {
            throw Self.malformed("\(bytes.count) bytes, at least \(Self.minimumLength) needed")
        }
        raw = bytes
        flags = AuthenticatorFlags(byte: bytes[32])
        signCount = UInt32(bytes[33]) << 24 | UInt32(bytes[34]) << 16 | UInt32(bytes[35]) << 8 | UInt32(bytes[36])
        var offset = Self.minimumLength
        if flags.attestedCredentialData {
            let attested = try AttestedCredentialData(bytes, at: offset)
            attestedCredentialData = attested
            offset = attested.end
        } else {
            attestedCredentialData = nil
        }
        if flags.extensionData {
            let (value, end) = try Self.cbor(bytes, at: offset)
            guard value.mapValue != nil else { throw Self.malformed("extensions are not a CBOR map") }
            extensions = value
            offset = end
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw Self.malformed("\(bytes.count - offset) bytes left over that the AT/ED flags do not announce")
        }
    }

    static func malformed(_ reason: String) -> WebAuthnError {
        WebAuthnError(.malformedAuthenticatorData, reason)
    }

    static func cbor(_ bytes: [UInt8], at offset: Int) throws(WebAuthnError) -> (CBORValue, Int) {
        do {
            return try CBORDecoder.decodePrefix(bytes, at: offset)
        } catch {
            throw malformed("CBOR at offset \(offset): \(error.message)")
        }
    }
}

/// Attested credential data (WebAuthn §6.5.1): AAGUID, credential ID and the COSE credential public key.
package struct AttestedCredentialData: Sendable {
    /// The authenticator model's AAGUID, 16 bytes.
    package let aaguid: [UInt8]
    /// The credential ID.
    package let credentialId: [UInt8]
    /// The COSE_Key exactly as encoded, to store.
    package let publicKeyBytes: [UInt8]
    /// The decoded COSE_Key.
    package let publicKey: CBORValue
    /// Offset just past the public key.
    package let end: Int

    init(_ bytes: [UInt8], at start: Int) throws(WebAuthnError) {
        // aaguid (16) + credentialIdLength (2, big-endian)
        guard bytes.count - start >= 18 else { throw AuthenticatorData.malformed("attested credential data truncated") }
        aaguid = Array(bytes[start..<start + 16])
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        let idStart = start + 18
        guard bytes.count - idStart >= idLength else {
            throw AuthenticatorData.malformed("credential ID of \(idLength) bytes is truncated")
        }
        credentialId = Array(bytes[idStart..<idStart + idLength])
        let (key, keyEnd) = try AuthenticatorData.cbor(bytes, at: idStart + idLength)
        publicKey = key
        publicKeyBytes = Array(bytes[(idStart + idLength)..<keyEnd])
        end = keyEnd
    }
}
