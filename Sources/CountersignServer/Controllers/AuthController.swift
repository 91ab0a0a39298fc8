import CountersignAPI
import CountersignCore
import Hummingbird

/// `/auth`: signup, login and logout.
package struct AuthController {
    let accounts: AccountService
    let throttle: RequestThrottle

    package func addRoutes(to group: RouterGroup<AppRequestContext>, sessions: SessionMiddleware) {
        group.post("signup", use: signup)
        group.post("login", use: login)
        group.add(middleware: sessions).post("logout", use: logout)
        group.add(middleware: sessions).post("logout-all", use: logoutEverywhere)
    }

    /// `POST /auth/signup` → 201 `{userId, sessionToken}`.
    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SessionResponse> {
        try throttle.check(request, context: context, address: [.signupAddress])
        var request = request
        let body = try await request.decodeJSON(as: SignupRequest.self, context: context)
        return .init(status: .created, response: try await accounts.signup(body))
    }

    /// `POST /auth/login` → 200 `{userId, sessionToken}`.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> SessionResponse {
        var request = request
        let body = try await request.decodeJSON(as: LoginRequest.self, context: context)
        let phone = PhoneNumber(body.phone, region: accounts.configuration.phoneRegion)?.value ?? String(body.phone.prefix(32))
        try throttle.check(request, context: context, address: [.loginAddress], account: [.loginPhone], key: phone)
        return try await accounts.login(body)
    }

    /// `POST /auth/logout` → 204; the session's token stops working at once.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        if let token = context.sessionToken { try await accounts.logout(token: token, userId: try context.requireUser()) }
        return .noContent
    }

    /// `POST /auth/logout-all` → 204; every session of the user, this one included, ends at once,
    /// and so do their open event streams.
    @Sendable func logoutEverywhere(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        _ = try await accounts.logoutEverywhere(userId: try context.requireUser())
        return .noContent
    }
}

extension SessionResponse: ResponseEncodable {}
