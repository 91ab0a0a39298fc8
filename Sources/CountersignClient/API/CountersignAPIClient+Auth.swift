import CountersignAPI

extension CountersignAPIClient {
    /// `POST /auth/signup`: creates the user and starts their session.
    @discardableResult
    public func signup(_ body: SignupRequest) async throws -> SessionResponse {
        let session: SessionResponse = try await call(request("POST", "/auth/signup", json: body))
        setSessionToken(session.sessionToken)
        return session
    }

    /// `POST /auth/login`: starts a session with the phone number and PIN.
    @discardableResult
    public func login(_ body: LoginRequest) async throws -> SessionResponse {
        let session: SessionResponse = try await call(request("POST", "/auth/login", json: body))
        setSessionToken(session.sessionToken)
        return session
    }

    /// `POST /auth/logout`: ends the session. The token is forgotten even when the call fails, so a
    /// device never keeps a session its user asked to end.
    public func logout() async throws {
        let outgoing = try request("POST", "/auth/logout")
        setSessionToken(nil)
        _ = try await send(outgoing)
    }

    /// `POST /biometric/register/options`: what a new device credential must be created with.
    public func registrationOptions() async throws -> RegistrationOptionsResponse {
        try await call(request("POST", "/biometric/register/options"))
    }

    /// `POST /biometric/register/verify`: registers the device credential.
    public func registerCredential(_ body: RegistrationResponseJSON) async throws -> RegistrationVerifyResponse {
        try await call(request("POST", "/biometric/register/verify", json: body))
    }

    /// `GET /biometric/auth/options`: the challenge that binds one airtime payment.
    public func authenticationOptions(_ intent: AuthenticationOptionsRequest) async throws -> AuthenticationOptionsResponse {
        var query = [
            "amount=\(intent.amount)",
            "productCode=\(Self.escape(intent.productCode))",
            "recipientPhone=\(Self.escape(intent.recipientPhone))",
        ]
        if let supplier = intent.supplierSlug { query.append("supplierSlug=\(Self.escape(supplier))") }
        return try await call(request("GET", "/biometric/auth/options?" + query.joined(separator: "&")))
    }

    /// `POST /biometric/auth/verify`: trades a signed assertion for a single-use verification token.
    /// A refusal throws `.api` with the verify endpoint's code, e.g. `bad_signature`.
    public func verifyAuthentication(_ assertion: AuthenticationResponseJSON) async throws -> AuthenticationVerifyResponse {
        try await call(request("POST", "/biometric/auth/verify", json: assertion))
    }
}
