import CountersignCodec

/// The CBOR attestation object of a registration (WebAuthn §6.5.4): `{fmt, attStmt, authData}`.
package struct AttestationObject: Sendable {
    /// The attestation statement format identifier.
    package let format: String
    /// The format-specific statement map.
    package let statement: CBORValue
    /// The parsed authenticatorData.
    package let authenticatorData: AuthenticatorData

    /// Decodes and checks the shape of an attestation object.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let value = try CBORDecoder.decode(bytes)
        guard value.mapValue != nil else { throw Self.malformed("attestation object is not a CBOR map") }
        guard let format = value[text: "fmt"]?.textValue else {
            throw Self.malformed("attestation object has no text fmt")
        }
        guard let statement = value[text: "attStmt"], statement.mapValue != nil else {
            throw Self.malformed("attestation object has no attStmt map")
        }
        guard let authData = value[text: "authData"]?.bytesValue else {
            throw Self.malformed("attestation object has no authData byte string")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(authData)
    }

    static func malformed(_ reason: String) -> WebAuthnError {
        WebAuthnError(.malformedAttestation, reason)
    }
}

/// Everything an attestation statement format needs to verify its statement (WebAuthn §8: the verification procedure inputs).
package struct AttestationInput: Sendable {
    /// The format identifier.
    package let format: String
    /// attStmt.
    package let statement: CBORValue
    /// authenticatorData, parsed; `raw` holds its bytes.
    package let authData: AuthenticatorData
    /// SHA-256 of clientDataJSON.
    package let clientDataHash: [UInt8]
    /// The credential public key from the attested credential data.
    package let credentialKey: CredentialPublicKey
    /// The same key as its decoded COSE map, for formats that compare coordinates.
    package let credentialKeyCOSE: CBORValue

    /// Collects the inputs.
    package init(
        format: String, statement: CBORValue, authData: AuthenticatorData, clientDataHash: [UInt8],
        credentialKey: CredentialPublicKey, credentialKeyCOSE: CBORValue
    ) {
        self.format = format
        self.statement = statement
        self.authData = authData
        self.clientDataHash = clientDataHash
        self.credentialKey = credentialKey
        self.credentialKeyCOSE = credentialKeyCOSE
    }

    /// authenticatorData || clientDataHash: what packed, android-key and tpm (via extraData) sign.
    package var signedData: [UInt8] { authData.raw + clientDataHash }
}

/// The outcome of verifying an attestation statement.
package struct AttestationResult: Sendable {
    /// The attestation type conveyed.
    package let type: AttestationType
    /// x5c, leaf first, DER.
    package let trustPath: [[UInt8]]
}
