import CountersignAPI

extension CountersignAPIClient {
    /// `POST /auth/signup`: creates the user and starts their session.
    @discardableResult
    public func signup(_ body: SignupRequest) async throws -> SessionResponse {
        let session: SessionResponse = try await call(request(.signup, json: body))
        setSessionToken(session.sessionToken)
        return session
    }

    /// `POST /auth/login`: starts a session with the phone number and PIN.
    @discardableResult
    public func login(_ body: LoginRequest) async throws -> SessionResponse {
        let session: SessionResponse = try await call(request(.login, json: body))
        setSessionToken(session.sessionToken)
        return session
    }

    /// `POST /auth/logout`: ends the session. The token is forgotten even when the call fails, so a
    /// device never keeps a session its user asked to end.
    public func logout() async throws {
        let outgoing = try request(.logout)
        setSessionToken(nil)
        _ = try await send(outgoing)
    }

    /// `POST /auth/logout-all`: ends every session of the user, this one included.
    public func logoutEverywhere() async throws {
        let outgoing = try request(.logoutEverywhere)
        setSessionToken(nil)
        _ = try await send(outgoing)
    }

    /// `POST /biometric/register/options`: what a new device credential must be created with. A
    /// session alone is not enough: `stepUp` carries the account PIN, or an assertion from a key
    /// the user already has over `stepUpOptions()`'s challenge.
    public func registrationOptions(stepUp: RegistrationOptionsRequest) async throws -> RegistrationOptionsResponse {
        try await call(request(.registrationOptions, json: stepUp))
    }

    /// `POST /biometric/step-up/options`: a challenge that authorizes adding a device key, to sign
    /// with a key the user already has.
    public func stepUpOptions() async throws -> StepUpOptionsResponse {
        try await call(request(.stepUpOptions))
    }

    /// `GET /biometric/credentials`: the user's device keys.
    public func credentials() async throws -> CredentialList {
        try await call(request(.listCredentials))
    }

    /// `DELETE /biometric/credentials/{id}`: revokes one of the user's keys.
    public func revokeCredential(id: String) async throws {
        _ = try await send(try request(.revokeCredential, [id]))
    }

    /// `POST /biometric/register/verify`: registers the device credential.
    public func registerCredential(_ body: RegistrationResponseJSON) async throws -> RegistrationVerifyResponse {
        try await call(request(.registrationVerify, json: body))
    }

    /// `GET /biometric/auth/options`: the challenge that binds one airtime payment.
    public func authenticationOptions(_ intent: AuthenticationOptionsRequest) async throws
        -> AuthenticationOptionsResponse
    {
        let query: [(String, String?)] = [
            ("amount", String(intent.amount)), ("productCode", intent.productCode),
            ("recipientPhone", intent.recipientPhone),
            ("supplierSlug", intent.supplierSlug),
        ]
        return try await call(request(.authenticationOptionsFromQuery, query: query))
    }

    /// `POST /biometric/auth/verify`: trades a signed assertion for a single-use verification token.
    /// A refusal throws `.api` with the verify endpoint's code, e.g. `bad_signature`.
    public func verifyAuthentication(_ assertion: AuthenticationResponseJSON) async throws
        -> AuthenticationVerifyResponse
    {
        try await call(request(.authenticationVerify, json: assertion))
    }
}
