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

    /// `POST /auth/logout-all`: ends every session of the user, this one included.
    public func logoutEverywhere() async throws {
        let outgoing = try request("POST", "/auth/logout-all")
        setSessionToken(nil)
        _ = try await send(outgoing)
    }

    /// `POST /biometric/register/options`: what a new device credential must be created with. A
    /// session alone is not enough: `stepUp` carries the account PIN, or an assertion from a key
    /// the user already has over `stepUpOptions()`'s challenge.
    public func registrationOptions(stepUp: RegistrationOptionsRequest) async throws -> RegistrationOptionsResponse {
        try await call(request("POST", "/biometric/register/options", json: stepUp))
    }

    /// `POST /biometric/step-up/options`: a challenge that authorizes adding a device key, to sign
    /// with a key the user already has.
    public func stepUpOptions() async throws -> StepUpOptionsResponse {
        try await call(request("POST", "/biometric/step-up/options"))
    }

    /// `GET /biometric/credentials`: the user's device keys.
    public func credentials() async throws -> CredentialList {
        try await call(request("GET", "/biometric/credentials"))
    }

    /// `DELETE /biometric/credentials/{id}`: revokes one of the user's keys.
    public func revokeCredential(id: String) async throws {
        _ = try await send(try request("DELETE", "/biometric/credentials/\(Self.escape(id))"))
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
