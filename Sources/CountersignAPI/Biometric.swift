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
        public var id: String
        public var name: String
        /// A value with every field given.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    /// The user entity; `id` is the base64url user handle.
    public struct User: Codable, Sendable {
        public var id: String
        public var name: String
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
        public var type: String
        public var alg: Int
        /// A value with every field given.
        public init(type: String, alg: Int) {
            self.type = type
            self.alg = alg
        }
    }
    /// Requirements on the authenticator.
    public struct AuthenticatorSelection: Codable, Sendable {
        public var authenticatorAttachment: String?
        public var residentKey: String
        public var userVerification: String
        /// A value with every field given.
        public init(authenticatorAttachment: String? = nil, residentKey: String, userVerification: String) {
            self.authenticatorAttachment = authenticatorAttachment
            self.residentKey = residentKey
            self.userVerification = userVerification
        }
    }
    public var challenge: String
    public var rp: RelyingParty
    public var user: User
    public var pubKeyCredParams: [CredentialParameter]
    public var timeout: Int
    public var attestation: String
    public var authenticatorSelection: AuthenticatorSelection
    public var excludeCredentials: [CredentialDescriptor]
    /// A value with every field given.
    public init(challenge: String, rp: RelyingParty, user: User, pubKeyCredParams: [CredentialParameter], timeout: Int, attestation: String, authenticatorSelection: AuthenticatorSelection, excludeCredentials: [CredentialDescriptor]) {
        self.challenge = challenge
        self.rp = rp
        self.user = user
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.attestation = attestation
        self.authenticatorSelection = authenticatorSelection
        self.excludeCredentials = excludeCredentials
    }
}

/// WebAuthn `RegistrationResponseJSON`, as browsers and the SDK send it.
public struct RegistrationResponseJSON: Codable, Sendable {
    /// The attestation response.
    public struct Response: Codable, Sendable {
        public var clientDataJSON: String
        public var attestationObject: String
        public var transports: [String]?
        /// An attestation response.
        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    /// A registration response.
    public init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// `POST /biometric/register/verify` answer.
public struct RegistrationVerifyResponse: Codable, Sendable {
    public var verified: Bool
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
    /// The intent as the server understood it (canonical phone, derived supplier, currency).
    public struct Transaction: Codable, Sendable, Equatable {
        public var kind: String
        public var amount: Int64
        public var currency: String
        public var productCode: String
        public var recipientPhone: String
        public var supplierSlug: String
        /// A transaction.
        public init(kind: String, amount: Int64, currency: String, productCode: String, recipientPhone: String, supplierSlug: String) {
            self.kind = kind
            self.amount = amount
            self.currency = currency
            self.productCode = productCode
            self.recipientPhone = recipientPhone
            self.supplierSlug = supplierSlug
        }
    }
    public var challenge: String
    public var rpId: String
    public var allowCredentials: [CredentialDescriptor]
    public var userVerification: String
    public var timeout: Int
    public var transaction: Transaction
    public var nonce: String
    /// A value with every field given.
    public init(challenge: String, rpId: String, allowCredentials: [CredentialDescriptor], userVerification: String, timeout: Int, transaction: Transaction, nonce: String) {
        self.challenge = challenge
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.timeout = timeout
        self.transaction = transaction
        self.nonce = nonce
    }
}

/// WebAuthn `AuthenticationResponseJSON`.
public struct AuthenticationResponseJSON: Codable, Sendable {
    /// The assertion.
    public struct Response: Codable, Sendable {
        public var clientDataJSON: String
        public var authenticatorData: String
        public var signature: String
        public var userHandle: String?
        /// An assertion response.
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    /// An authentication response.
    public init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// `POST /biometric/auth/verify` answer, success or failure (the seed's shape plus `code`).
public struct AuthenticationVerifyResponse: Codable, Sendable {
    public var verified: Bool
    public var verificationToken: String?
    public var expiresIn: Int?
    public var message: String
    public var code: String?
    public var retryAfter: Int?
    /// A value with every field given.
    public init(verified: Bool, verificationToken: String? = nil, expiresIn: Int? = nil, message: String, code: String? = nil, retryAfter: Int? = nil) {
        self.verified = verified
        self.verificationToken = verificationToken
        self.expiresIn = expiresIn
        self.message = message
        self.code = code
        self.retryAfter = retryAfter
    }
}
