/// One relying-party test vector file (Tests/Fixtures/webauthn/README.md): a registration and/or an
/// authentication, each with the verdict a conforming verifier must reach. Binary fields stay base64url text.
public struct WebAuthnTestVector: Decodable, Sendable {
    /// The vector's name, e.g. `w3c/none-ES256`.
    public let name: String
    /// Where the vector comes from.
    public let source: String?
    /// The RP ID.
    public let rpId: String
    /// The allowed origins.
    public let origins: [String]
    /// The registration ceremony, if the source has one.
    public let registration: Registration?
    /// The authentication ceremony, if the source has one.
    public let authentication: Authentication?

    /// A registration ceremony and its expected verdict.
    public struct Registration: Decodable, Sendable {
        /// The challenge the RP issued (base64url).
        public let challenge: String
        /// Whether the RP required user verification.
        public let userVerificationRequired: Bool
        /// The RegistrationResponseJSON.
        public let response: Credential<AttestationResponse>
        /// `valid` or `invalid`.
        public let expect: String
        /// The attestation statement format the vector exercises.
        public let attestationFormat: String?
        /// Why it is invalid, or anything unusual.
        public let note: String?
    }

    /// An authentication ceremony and its expected verdict.
    public struct Authentication: Decodable, Sendable {
        /// The challenge the RP issued (base64url).
        public let challenge: String
        /// Whether the RP required user verification.
        public let userVerificationRequired: Bool
        /// The stored COSE_Key (base64url).
        public let credentialPublicKey: String
        /// The stored signature counter.
        public let storedSignCount: UInt32
        /// The AuthenticationResponseJSON.
        public let response: Credential<AssertionResponse>
        /// `valid` or `invalid`.
        public let expect: String
        /// On valid assertions, the counter the verifier must report.
        public let expectSignCount: UInt32?
        /// Why it is invalid, or anything unusual.
        public let note: String?
    }

    /// PublicKeyCredential JSON: `{id, rawId, type, response}`.
    public struct Credential<Response: Decodable & Sendable>: Decodable, Sendable {
        /// The credential ID, base64url.
        public let id: String
        /// The credential ID, base64url (authoritative).
        public let rawId: String
        /// `public-key`.
        public let type: String
        /// The authenticator response.
        public let response: Response
    }

    /// AuthenticatorAttestationResponseJSON, as far as verification needs.
    public struct AttestationResponse: Decodable, Sendable {
        /// clientDataJSON, base64url.
        public let clientDataJSON: String
        /// The attestation object, base64url.
        public let attestationObject: String
    }

    /// AuthenticatorAssertionResponseJSON.
    public struct AssertionResponse: Decodable, Sendable {
        /// clientDataJSON, base64url.
        public let clientDataJSON: String
        /// authenticatorData, base64url.
        public let authenticatorData: String
        /// The signature, base64url.
        public let signature: String
        /// The user handle, base64url, when the authenticator returned one.
        public let userHandle: String?
    }
}
