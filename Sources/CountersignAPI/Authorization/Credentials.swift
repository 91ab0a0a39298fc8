/// `POST /biometric/register/options` body: the step-up a new device key needs. A session alone
/// is not enough (a stolen bearer token must not be able to add the thief's key): the account PIN,
/// or an assertion from a key the user already has, answering `POST /biometric/step-up/options`.
public struct RegistrationOptionsRequest: Codable, Sendable {
    /// The account PIN (counted towards the PIN lockout), with `verificationId` and `code`: a code
    /// sent to the account's number (purpose `bind-device`). Within ten minutes of a sign-in that
    /// proved the number with a code (signup, or login on a new device), the PIN alone will do.
    public var pin: String?
    public var verificationId: String?
    public var code: String?
    /// An assertion from one of the user's keys over a step-up challenge.
    public var assertion: AuthenticationResponseJSON?
    /// True for a passkey usable with Secure Payment Confirmation: the options then carry the
    /// `payment` extension and require a discoverable credential with user verification on a
    /// platform authenticator.
    public var payment: Bool?
    /// A step-up with the PIN (and a code) or with an assertion.
    public init(
        pin: String? = nil, verificationId: String? = nil, code: String? = nil,
        assertion: AuthenticationResponseJSON? = nil, payment: Bool? = nil
    ) {
        self.pin = pin
        self.verificationId = verificationId
        self.code = code
        self.assertion = assertion
        self.payment = payment
    }
}

/// `POST /biometric/step-up/options` answer: WebAuthn request options whose challenge authorizes
/// adding a device key and nothing else.
public typealias StepUpOptionsResponse = CredentialRequestOptions

/// WebAuthn `PublicKeyCredentialRequestOptions` in their JSON form, for a challenge that is not a
/// payment's (step-up, passkey sign-in).
public struct CredentialRequestOptions: Codable, Sendable {
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
    /// A value with every field given.
    public init(
        challenge: String, rpId: String, allowCredentials: [CredentialDescriptor], userVerification: String,
        timeout: Int
    ) {
        self.challenge = challenge
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.timeout = timeout
    }
}

/// One of the user's device keys, as `GET /biometric/credentials` lists it.
public struct CredentialSummary: Codable, Sendable, Equatable {
    /// The credential id, base64url.
    public var id: String
    /// The COSE algorithm, e.g. -7 for ES256.
    public var algorithm: Int
    /// The attestation format it was registered with (`none`, `packed`, …).
    public var attestationFormat: String
    /// Whether that attestation was verified.
    public var attestationVerified: Bool
    /// Whether the key may be synced (a passkey) rather than bound to one device.
    public var backupEligible: Bool
    /// The transports the client reported.
    public var transports: [String]
    /// When it was registered (ISO 8601).
    public var createdAt: String
    /// When it last authorized something (ISO 8601).
    public var lastUsedAt: String?
    /// Set when a security check disabled it (a sign-count regression).
    public var flagged: Bool
    /// Bound with the PIN and a code rather than by another key: until then (ISO 8601) it pays at
    /// most the new-device limit (`GET /account/security`).
    public var coolingOffUntil: String?
    /// A value with every field given.
    public init(
        id: String, algorithm: Int, attestationFormat: String, attestationVerified: Bool, backupEligible: Bool,
        transports: [String], createdAt: String, lastUsedAt: String?, flagged: Bool, coolingOffUntil: String? = nil
    ) {
        self.coolingOffUntil = coolingOffUntil
        self.id = id
        self.algorithm = algorithm
        self.attestationFormat = attestationFormat
        self.attestationVerified = attestationVerified
        self.backupEligible = backupEligible
        self.transports = transports
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.flagged = flagged
    }
}

/// `GET /biometric/credentials` answer.
public struct CredentialList: Codable, Sendable {
    /// The user's keys, oldest first; revoked keys are not listed.
    public var credentials: [CredentialSummary]
    /// A list.
    public init(credentials: [CredentialSummary]) { self.credentials = credentials }
}
