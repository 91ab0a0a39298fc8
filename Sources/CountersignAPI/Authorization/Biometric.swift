import CountersignCore

/// A credential descriptor as WebAuthn's `PublicKeyCredentialDescriptor`.
public struct CredentialDescriptor: Codable, Sendable, Equatable {
    /// The credential id, base64url.
    public var id: String
    /// Always `public-key`.
    public var type: String
    /// Transport hints, e.g. `internal`, `hybrid`.
    public var transports: [String]?
    /// A descriptor.
    public init(id: String, type: String = "public-key", transports: [String]? = nil) {
        self.id = id
        self.type = type
        self.transports = transports
    }
}

/// `POST /biometric/register/options` answer: WebAuthn `PublicKeyCredentialCreationOptions`.
public struct RegistrationOptionsResponse: Codable, Sendable {
    /// The relying party.
    public struct RelyingParty: Codable, Sendable {
        /// The identifier.
        public var id: String
        /// The name.
        public var name: String
        /// A value with every field given.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    /// The user entity; `id` is the base64url user handle.
    public struct User: Codable, Sendable {
        /// The identifier.
        public var id: String
        /// The name.
        public var name: String
        /// The name shown to the user.
        public var displayName: String
        /// A value with every field given.
        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }
    /// One acceptable algorithm.
    public struct CredentialParameter: Codable, Sendable {
        /// The type.
        public var type: String
        /// The COSE algorithm identifier.
        public var alg: Int
        /// A value with every field given.
        public init(type: String, alg: Int) {
            self.type = type
            self.alg = alg
        }
    }
    /// Requirements on the authenticator.
    public struct AuthenticatorSelection: Codable, Sendable {
        /// `platform`, `cross-platform`, or nil for either.
        public var authenticatorAttachment: String?
        /// Whether a discoverable credential is wanted.
        public var residentKey: String
        /// `required` or `preferred`.
        public var userVerification: String
        /// A value with every field given.
        public init(authenticatorAttachment: String? = nil, residentKey: String, userVerification: String) {
            self.authenticatorAttachment = authenticatorAttachment
            self.residentKey = residentKey
            self.userVerification = userVerification
        }
    }
    /// The challenge to sign, base64url.
    public var challenge: String
    /// The relying party.
    public var rp: RelyingParty
    /// The user the credential is for.
    public var user: User
    /// Acceptable algorithms, most preferred first.
    public var pubKeyCredParams: [CredentialParameter]
    /// How long the challenge lives, in milliseconds.
    public var timeout: Int
    /// The attestation conveyance preference.
    public var attestation: String
    /// What the authenticator must do.
    public var authenticatorSelection: AuthenticatorSelection
    /// Credentials already registered, which must not be registered again.
    public var excludeCredentials: [CredentialDescriptor]
    /// `{payment: {isPayment: true}}` when the request asked for a payment passkey.
    public var extensions: RegistrationExtensions?
    /// A value with every field given.
    public init(
        challenge: String, rp: RelyingParty, user: User, pubKeyCredParams: [CredentialParameter], timeout: Int,
        attestation: String, authenticatorSelection: AuthenticatorSelection, excludeCredentials: [CredentialDescriptor],
        extensions: RegistrationExtensions? = nil
    ) {
        self.challenge = challenge
        self.rp = rp
        self.user = user
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.attestation = attestation
        self.authenticatorSelection = authenticatorSelection
        self.excludeCredentials = excludeCredentials
        self.extensions = extensions
    }
}

/// A WebAuthn `PublicKeyCredential` as JSON (`RegistrationResponseJSON`, `AuthenticationResponseJSON`):
/// the credential id twice (`id` as text, `rawId` as base64url bytes), its type and the
/// authenticator's response.
public struct PublicKeyCredentialJSON<Response: Codable & Sendable>: Codable, Sendable {
    /// The credential id, base64url.
    public var id: String
    /// The credential id, base64url (the same bytes as `id`).
    public var rawId: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator response.
    public var response: Response
    /// A credential response.
    public init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// WebAuthn `RegistrationResponseJSON`, as browsers and the SDK send it.
public typealias RegistrationResponseJSON = PublicKeyCredentialJSON<AttestationResponseJSON>

/// WebAuthn `AuthenticatorAttestationResponseJSON`.
public struct AttestationResponseJSON: Codable, Sendable {
    /// The client data, base64url.
    public var clientDataJSON: String
    /// The attestation object (CBOR), base64url.
    public var attestationObject: String
    /// Transport hints.
    public var transports: [String]?
    /// An attestation response.
    public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// `POST /biometric/register/verify` answer.
public struct RegistrationVerifyResponse: Codable, Sendable {
    /// Whether the ceremony verified.
    public var verified: Bool
    /// The registered credential id, base64url.
    public var credentialId: String
    /// A value with every field given.
    public init(verified: Bool, credentialId: String) {
        self.verified = verified
        self.credentialId = credentialId
    }
}

/// The payment intent a client asks to authorize: `GET|POST /biometric/auth/options`.
public struct AuthenticationOptionsRequest: Codable, Sendable {
    /// Minor units.
    public var amount: Int64
    /// E.g. `AIRTIME_MTN`.
    public var productCode: String
    /// The recipient's phone number.
    public var recipientPhone: String
    /// E.g. `mtn`; derived from `productCode` when absent.
    public var supplierSlug: String?
    /// An options request.
    public init(amount: Int64, productCode: String, recipientPhone: String, supplierSlug: String? = nil) {
        self.amount = amount
        self.productCode = productCode
        self.recipientPhone = recipientPhone
        self.supplierSlug = supplierSlug
    }
}

/// `GET /biometric/auth/options` answer: the seed's fields plus the intent and nonce that make the
/// challenge, so a client can recompute `SHA-256(nonce ‖ canonical intent)` before it signs.
public struct AuthenticationOptionsResponse: Codable, Sendable {
    /// The intent as the server understood it (canonical phone, derived supplier, currency): the
    /// fields whose canonical form the challenge covers.
    public typealias Transaction = PaymentIntent
    /// The challenge to sign, base64url.
    public var challenge: String
    /// The relying party id the assertion must be scoped to.
    public var rpId: String
    /// The credentials that may answer.
    public var allowCredentials: [CredentialDescriptor]
    /// `required` or `preferred`.
    public var userVerification: String
    /// How long the challenge lives, in milliseconds.
    public var timeout: Int
    /// The intent as the server understood it.
    public var transaction: Transaction
    /// The random nonce of the challenge, base64url.
    public var nonce: String
    /// What to pass to Secure Payment Confirmation for this challenge, where the browser offers it.
    public var securePaymentConfirmation: SecurePaymentConfirmationData?
    /// Whether the PIN alone may pay this intent now (within the low-value allowance); when false,
    /// offer only the passkey: a PIN would be refused with `strong_authentication_required`.
    public var pinAllowed: Bool?
    /// A value with every field given.
    public init(
        challenge: String, rpId: String, allowCredentials: [CredentialDescriptor], userVerification: String,
        timeout: Int, transaction: Transaction, nonce: String,
        securePaymentConfirmation: SecurePaymentConfirmationData? = nil, pinAllowed: Bool? = nil
    ) {
        self.challenge = challenge
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.timeout = timeout
        self.transaction = transaction
        self.nonce = nonce
        self.securePaymentConfirmation = securePaymentConfirmation
        self.pinAllowed = pinAllowed
    }
}

/// WebAuthn `AuthenticationResponseJSON`.
public typealias AuthenticationResponseJSON = PublicKeyCredentialJSON<AssertionResponseJSON>

/// WebAuthn `AuthenticatorAssertionResponseJSON`.
public struct AssertionResponseJSON: Codable, Sendable {
    /// The client data, base64url.
    public var clientDataJSON: String
    /// The authenticator data, base64url.
    public var authenticatorData: String
    /// The signature, base64url.
    public var signature: String
    /// The user handle, base64url, if the authenticator returned one.
    public var userHandle: String?
    /// An assertion response.
    public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// `POST /biometric/auth/verify` answer, success or failure (the seed's shape plus `code`).
public struct AuthenticationVerifyResponse: Codable, Sendable {
    /// Whether the ceremony verified.
    public var verified: Bool
    /// The single-use token that authorizes the payment.
    public var verificationToken: String?
    /// Seconds the token lives.
    public var expiresIn: Int?
    /// A human-readable message.
    public var message: String
    /// A stable machine code when something failed.
    public var code: String?
    /// Seconds until a locked action may be retried.
    public var retryAfter: Int?
    /// A value with every field given.
    public init(
        verified: Bool, verificationToken: String? = nil, expiresIn: Int? = nil, message: String, code: String? = nil,
        retryAfter: Int? = nil
    ) {
        self.verified = verified
        self.verificationToken = verificationToken
        self.expiresIn = expiresIn
        self.message = message
        self.code = code
        self.retryAfter = retryAfter
    }
}
