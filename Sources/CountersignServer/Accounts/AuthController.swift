import CountersignAPI
import CountersignCore
import Hummingbird

/// `/auth`: signup, login (PIN or passkey) and logout.
package struct AuthController {
    let accounts: AccountService
    let biometric: BiometricService
    let throttle: RequestThrottle
    /// The web app's copy of the session: set with every new session, cleared at logout.
    let cookie: SessionCookie

    package func addRoutes(to group: RouterGroup<AppRequestContext>, sessions: SessionMiddleware) {
        group.on(.signup, use: signup)
        group.on(.login, use: login)
        group.on(.passkeySignInOptions, use: passkeyOptions)
        group.on(.passkeySignIn, use: passkeyVerify)
        let signedIn = group.group().add(middleware: sessions)
        signedIn.on(.logout, use: logout)
        signedIn.on(.logoutEverywhere, use: logoutEverywhere)
    }

    /// `POST /auth/signup` → 201 `{userId, sessionToken}`.
    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SessionResponse
    > {
        try throttle.check(request, context: context, address: [.signupAddress])
        var request = request
        let body = try await request.decodeJSON(as: SignupRequest.self, context: context)
        let session = try await accounts.signup(body)
        return .init(status: .created, headers: [.setCookie: cookie.setting(session.sessionToken)], response: session)
    }

    /// `POST /auth/login` → 200 `{userId, sessionToken}`.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SessionResponse>
    {
        var request = request
        let body = try await request.decodeJSON(as: LoginRequest.self, context: context)
        let phone =
            PhoneNumber(body.phone, region: accounts.configuration.phoneRegion)?.value ?? String(body.phone.prefix(32))
        try throttle.check(request, context: context, address: [.loginAddress], account: [.loginPhone], key: phone)
        let session = try await accounts.login(body)
        return .init(headers: [.setCookie: cookie.setting(session.sessionToken)], response: session)
    }

    /// `POST /auth/passkey/options` → request options for signing in with a passkey.
    @Sendable func passkeyOptions(_ request: Request, context: AppRequestContext) async throws
        -> PasskeySignInOptionsResponse
    {
        try throttle.check(request, context: context, address: [.loginAddress])
        return try await biometric.signInOptions()
    }

    /// `POST /auth/passkey/verify` with an AuthenticationResponseJSON → 200 `{userId, sessionToken}`.
    @Sendable func passkeyVerify(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SessionResponse
    > {
        try throttle.check(request, context: context, address: [.loginAddress])
        var request = request
        let body = try await request.decodeJSON(as: AuthenticationResponseJSON.self, context: context)
        let session = try await accounts.openSession(userId: try await biometric.signIn(body))
        return .init(headers: [.setCookie: cookie.setting(session.sessionToken)], response: session)
    }

    /// `POST /auth/logout` → 204; the session's token stops working at once.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let token = context.sessionToken {
            try await accounts.logout(token: token, userId: try context.requireUser())
        }
        return Response(status: .noContent, headers: [.setCookie: cookie.clearing])
    }

    /// `POST /auth/logout-all` → 204; every session of the user, this one included, ends at once,
    /// and so do their open event streams.
    @Sendable func logoutEverywhere(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await accounts.logoutEverywhere(userId: try context.requireUser())
        return Response(status: .noContent, headers: [.setCookie: cookie.clearing])
    }
}

extension SessionResponse: ResponseEncodable {}
