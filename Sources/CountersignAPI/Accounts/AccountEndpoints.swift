extension Endpoint {
    /// A new account and its first session.
    package static let signup = Endpoint(.post, "/auth/signup")
    /// A session from the phone number and PIN.
    package static let login = Endpoint(.post, "/auth/login")
    /// A challenge for signing in with a passkey.
    package static let passkeySignInOptions = Endpoint(.post, "/auth/passkey/options")
    /// A session from a passkey's assertion.
    package static let passkeySignIn = Endpoint(.post, "/auth/passkey/verify")
    /// Ends this session.
    package static let logout = Endpoint(.post, "/auth/logout")
    /// Ends every session of the user.
    package static let logoutEverywhere = Endpoint(.post, "/auth/logout-all")
}
