/// `POST /auth/signup` body: a code sent to the number (purpose `signup`) proves the number; the
/// account is created only then.
public struct SignupRequest: Codable, Sendable {
    /// The `verificationId` of `POST /auth/phone/verifications` for the number.
    public var verificationId: String
    /// The 6-digit code the SMS carried.
    public var code: String
    /// The display name.
    public var name: String
    /// A 4 to 6 digit PIN; the most common ones are refused (`weak_pin`).
    public var pin: String
    /// This device's token from an earlier session of another account, if it has one: the device is
    /// then remembered for this account too.
    public var deviceToken: String?
    /// A signup request.
    public init(verificationId: String, code: String, name: String, pin: String, deviceToken: String? = nil) {
        self.verificationId = verificationId
        self.code = code
        self.name = name
        self.pin = pin
        self.deviceToken = deviceToken
    }
}

/// `POST /auth/login` body. A device that held a session of this user before (its `deviceToken`, or
/// in a browser the device cookie) signs in with the PIN alone; any other needs the PIN and a code
/// sent to the number (purpose `login`): without one the answer is 401 `phone_code_required`.
public struct LoginRequest: Codable, Sendable {
    /// The phone number the user signed up with.
    public var phone: String
    /// The user's PIN.
    public var pin: String
    /// The token this device was given by an earlier session (`SessionResponse.deviceToken`).
    public var deviceToken: String?
    /// With `code`: a code sent to the number, for a device the account does not know.
    public var verificationId: String?
    public var code: String?
    /// A login request.
    public init(
        phone: String, pin: String, deviceToken: String? = nil, verificationId: String? = nil, code: String? = nil
    ) {
        self.phone = phone
        self.pin = pin
        self.deviceToken = deviceToken
        self.verificationId = verificationId
        self.code = code
    }
}

/// The answer to signup, login, passkey sign-in and PIN reset: who the user is, the bearer token of
/// their new session, and the token that lets this device sign in again with the PIN alone.
public struct SessionResponse: Codable, Sendable {
    /// The user's id.
    public var userId: String
    /// The bearer token for `Authorization: Bearer …`.
    public var sessionToken: String
    /// Keep it on the device (never the session itself): a later login from this device sends it and
    /// needs only the PIN. Browsers get it as an HttpOnly cookie as well. Revocable
    /// (`DELETE /account/devices/{id}`).
    public var deviceToken: String?
    /// A session response.
    public init(userId: String, sessionToken: String, deviceToken: String? = nil) {
        self.userId = userId
        self.sessionToken = sessionToken
        self.deviceToken = deviceToken
    }
}

/// `POST /auth/passkey/options` answer: WebAuthn request options for signing in with a passkey.
/// `allowCredentials` is empty: the browser offers whichever of the user's passkeys it holds.
public typealias PasskeySignInOptionsResponse = CredentialRequestOptions
