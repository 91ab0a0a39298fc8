/// `POST /auth/signup` body.
public struct SignupRequest: Codable, Sendable {
    /// The user's phone number; it is also their login.
    public var phone: String
    /// The display name.
    public var name: String
    /// A 4 to 6 digit PIN.
    public var pin: String
    /// A signup request.
    public init(phone: String, name: String, pin: String) {
        self.phone = phone
        self.name = name
        self.pin = pin
    }
}

/// `POST /auth/login` body.
public struct LoginRequest: Codable, Sendable {
    /// The phone number the user signed up with.
    public var phone: String
    /// The user's PIN.
    public var pin: String
    /// A login request.
    public init(phone: String, pin: String) {
        self.phone = phone
        self.pin = pin
    }
}

/// The answer to signup and login: who the user is and the bearer token of their new session.
public struct SessionResponse: Codable, Sendable {
    /// The user's id.
    public var userId: String
    /// The bearer token for `Authorization: Bearer …`.
    public var sessionToken: String
    /// A session response.
    public init(userId: String, sessionToken: String) {
        self.userId = userId
        self.sessionToken = sessionToken
    }
}

/// `POST /auth/passkey/options` answer: WebAuthn request options for signing in with a passkey.
/// `allowCredentials` is empty: the browser offers whichever of the user's passkeys it holds.
public typealias PasskeySignInOptionsResponse = CredentialRequestOptions
