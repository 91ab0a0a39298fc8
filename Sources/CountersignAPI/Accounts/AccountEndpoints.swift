extension Endpoint {
    /// Sends a one-time code to a phone number.
    package static let phoneVerification = Endpoint(.post, "/auth/phone/verifications")
    /// A new account and its first session, on a proven number.
    package static let signup = Endpoint(.post, "/auth/signup")
    /// A session from the phone number and PIN (and a code, on a device the account does not know).
    package static let login = Endpoint(.post, "/auth/login")
    /// A new PIN from a code (and an assertion from one of the user's keys, for no cooling-off).
    package static let pinReset = Endpoint(.post, "/auth/pin/reset")
    /// A challenge for signing in with a passkey.
    package static let passkeySignInOptions = Endpoint(.post, "/auth/passkey/options")
    /// A session from a passkey's assertion.
    package static let passkeySignIn = Endpoint(.post, "/auth/passkey/verify")
    /// Ends this session.
    package static let logout = Endpoint(.post, "/auth/logout")
    /// Ends every session of the user.
    package static let logoutEverywhere = Endpoint(.post, "/auth/logout-all")
    /// The account's security state: number, verification, locks, cooling-off.
    package static let accountSecurity = Endpoint(.get, "/account/security")
    /// Moves the account to another number.
    package static let changePhone = Endpoint(.post, "/account/phone")
    /// The devices that may sign in with the PIN alone.
    package static let listDevices = Endpoint(.get, "/account/devices")
    /// Forgets one of them.
    package static let revokeDevice = Endpoint(.delete, "/account/devices/{id}")
    /// What happened to the account: sign-ins from new devices, keys bound, PIN and number changes.
    package static let accountActivity = Endpoint(.get, "/account/activity")
    /// The same events as they happen (Server-Sent Events).
    package static let accountEvents = Endpoint(.get, "/account/events")
    /// What the SMS simulator sent to a number (test mode only).
    package static let simulatedSMS = Endpoint(.get, "/sim/sms")
}
