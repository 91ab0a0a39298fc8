import CountersignAPI
import CountersignCore
import HTTPTypes
import Hummingbird

/// `/auth`: codes to phone numbers, signup, login (PIN or passkey), PIN reset and logout.
package struct AuthController {
    let accounts: AccountService
    let biometric: BiometricService
    let verifications: PhoneVerifications
    let throttle: RequestThrottle
    /// The region numbers without a country code are read in.
    let phoneRegion: PhoneRegion
    /// The web app's copy of the session: set with every new session, cleared at logout.
    let cookie: SessionCookie
    /// The browser's device token, set when a device is first remembered.
    let deviceCookie: DeviceCookie

    package func addRoutes(to group: RouterGroup<AppRequestContext>, sessions: SessionMiddleware) {
        group.on(.phoneVerification, use: phoneVerification)
        group.on(.signup, use: signup)
        group.on(.login, use: login)
        group.on(.pinReset, use: pinReset)
        group.on(.passkeySignInOptions, use: passkeyOptions)
        group.on(.passkeySignIn, use: passkeyVerify)
        let signedIn = group.group().add(middleware: sessions)
        signedIn.on(.logout, use: logout)
        signedIn.on(.logoutEverywhere, use: logoutEverywhere)
    }

    /// `POST /auth/phone/verifications {phone, purpose}` → 202 `{verificationId, expiresIn,
    /// resendAfter}`, the same whether or not the number has an account. Limited per number (and one
    /// per `sms-resend` window), per client address, per signed-in account and per calling code.
    @Sendable func phoneVerification(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        PhoneVerificationResponse
    > {
        var request = request
        let body = try await request.decodeJSON(as: PhoneVerificationRequest.self, context: context)
        guard let phone = PhoneNumber(body.phone, region: phoneRegion) else {
            throw APIError(
                .invalidPhone, "phone must be a phone number: +country code and number, or a national number.")
        }
        // A signed-in user asking (for a change of number) is counted as themselves too.
        let userId = try await signedInUser(request)
        try await throttle.check(
            request, context: context, address: [.smsAddress], account: [.smsNumber], key: phone.value)
        // Asking again for the same thing: once per window (a code for another purpose may go at once).
        try await throttle.check(
            request, context: context, account: [.smsResend], key: "\(phone.value) \(body.purpose.rawValue)")
        if let userId { try await throttle.check(request, context: context, account: [.smsAccount], key: userId) }
        let answer = try await verifications.request(phone: phone, purpose: body.purpose, sessionUserId: userId)
        return .init(status: .accepted, response: answer)
    }

    /// `POST /auth/signup {verificationId, code, name, pin}` → 201 `{userId, sessionToken, deviceToken}`.
    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SessionResponse
    > {
        try await throttle.check(request, context: context, address: [.signupAddress])
        var request = request
        let body = try await request.decodeJSON(as: SignupRequest.self, context: context)
        let session = try await accounts.signup(body, device: device(request, body.deviceToken))
        return .init(status: .created, headers: cookies(session), response: session)
    }

    /// `POST /auth/login` → 200 `{userId, sessionToken, deviceToken?}`; 401 `phone_code_required`
    /// from a device the account does not know, without a code.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SessionResponse>
    {
        var request = request
        let body = try await request.decodeJSON(as: LoginRequest.self, context: context)
        let phone =
            PhoneNumber(body.phone, region: phoneRegion)?.value ?? String(body.phone.prefix(32))
        try await throttle.check(
            request, context: context, address: [.loginAddress], account: [.loginPhone], key: phone)
        let session = try await accounts.login(body, device: device(request, body.deviceToken))
        return .init(headers: cookies(session), response: session)
    }

    /// `POST /auth/pin/reset {verificationId, code, newPin, assertion?}` → 200 a new session; every
    /// other session ends.
    @Sendable func pinReset(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SessionResponse
    > {
        try await throttle.check(request, context: context, address: [.loginAddress])
        var request = request
        let body = try await request.decodeJSON(as: PinResetRequest.self, context: context)
        var asserted: String?
        if let assertion = body.assertion { asserted = try await biometric.signIn(assertion) }
        let session = try await accounts.resetPin(
            body, assertedUserId: asserted, device: device(request, body.deviceToken))
        return .init(headers: cookies(session), response: session)
    }

    /// `POST /auth/passkey/options` → request options for signing in with a passkey.
    @Sendable func passkeyOptions(_ request: Request, context: AppRequestContext) async throws
        -> PasskeySignInOptionsResponse
    {
        try await throttle.check(request, context: context, address: [.loginAddress])
        return try await biometric.signInOptions()
    }

    /// `POST /auth/passkey/verify` with an AuthenticationResponseJSON → 200 `{userId, sessionToken}`.
    @Sendable func passkeyVerify(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SessionResponse
    > {
        try await throttle.check(request, context: context, address: [.loginAddress])
        var request = request
        let body = try await request.decodeJSON(as: AuthenticationResponseJSON.self, context: context)
        let session = try await accounts.openSession(
            userId: try await biometric.signIn(body), proof: "passkey", device: device(request, nil))
        return .init(headers: cookies(session), response: session)
    }

    /// The device a request comes from: the body's token, else the device cookie.
    func device(_ request: Request, _ bodyToken: String?) -> DeviceContext {
        DeviceContext(
            token: bodyToken ?? deviceCookie.token(in: request.headers), userAgent: request.headers[.userAgent])
    }

    /// The session cookie, and the device cookie when the device is newly remembered.
    func cookies(_ session: SessionResponse) -> HTTPFields {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .setCookie, value: cookie.setting(session.sessionToken)))
        if let deviceToken = session.deviceToken {
            fields.append(HTTPField(name: .setCookie, value: deviceCookie.setting(deviceToken)))
        }
        return fields
    }

    /// The user of the request's session, if it carries a live one (bearer token or cookie).
    func signedInUser(_ request: Request) async throws -> String? {
        let token: String? =
            if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
                String(header.dropFirst("Bearer ".count))
            } else {
                cookie.token(in: request.headers)
            }
        guard let token, token.utf8.count <= 128 else { return nil }
        return try await accounts.userId(forToken: token)
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
