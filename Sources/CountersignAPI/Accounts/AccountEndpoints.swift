extension Endpoint {
    /// `POST /auth/signup`: a new account and its first session.
    package static let signup = Endpoint(.post, "/auth/signup")
    /// `POST /auth/login`: a session from the phone number and PIN.
    package static let login = Endpoint(.post, "/auth/login")
    /// `POST /auth/passkey/options`: a challenge for signing in with a passkey.
    package static let passkeySignInOptions = Endpoint(.post, "/auth/passkey/options")
    /// `POST /auth/passkey/verify`: a session from a passkey's assertion.
    package static let passkeySignIn = Endpoint(.post, "/auth/passkey/verify")
    /// `POST /auth/logout`: ends this session.
    package static let logout = Endpoint(.post, "/auth/logout")
    /// `POST /auth/logout-all`: ends every session of the user.
    package static let logoutEverywhere = Endpoint(.post, "/auth/logout-all")
}
