import CountersignAPI
import CountersignStore
import Hummingbird

/// `/account`: what protects the account, its remembered devices, its security activity, and a
/// change of number.
package struct AccountController {
    let accounts: AccountService
    let biometric: BiometricService
    /// What the event stream reads, and its timing.
    let database: any Database
    let configuration: ServerConfiguration

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.accountSecurity, use: security)
        group.on(.changePhone, use: changePhone)
        group.on(.listDevices, use: devices)
        group.on(.revokeDevice, use: forgetDevice)
        group.on(.accountActivity, use: activity)
        group.on(.accountEvents, use: events)
    }

    /// `GET /account/events`: the account's security events as Server-Sent Events, as they happen.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let lastEventId = request.headers[.lastEventID].flatMap { $0.utf8.count <= 64 && !$0.isEmpty ? $0 : nil }
        let stream = AccountEventStream(
            accounts: accounts, database: database, userId: try context.requireUser(),
            token: context.sessionToken ?? "",
            lastEventId: lastEventId, pollSeconds: min(max(configuration.streamFallbackSeconds, 1), 15),
            maxSeconds: configuration.streamMaxSeconds)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody { writer in try await stream.write(to: &writer) })
    }

    /// `GET /account/security`.
    @Sendable func security(_ request: Request, context: AppRequestContext) async throws -> AccountSecurityResponse {
        try await accounts.security(userId: try context.requireUser(), session: context.session)
    }

    /// `POST /account/phone {verificationId, code, stepUp}` → the account's security after.
    @Sendable func changePhone(_ request: Request, context: AppRequestContext) async throws -> AccountSecurityResponse {
        var request = request
        let body = try await request.decodeJSON(as: ChangePhoneRequest.self, context: context)
        let userId = try context.requireUser()
        var byKey = false
        if let assertion = body.stepUp.assertion {
            guard body.stepUp.pin == nil else {
                throw APIError(.ambiguousStepUp, "Send a pin or an assertion, not both.")
            }
            _ = try await biometric.verifyAssertion(userId: userId, assertion, for: .stepUp)
            byKey = true
        }
        return try await accounts.changePhone(userId: userId, body, steppedUpByKey: byKey)
    }

    /// `GET /account/devices`.
    @Sendable func devices(_ request: Request, context: AppRequestContext) async throws -> RememberedDeviceList {
        try await accounts.devices(userId: try context.requireUser(), currentDeviceId: context.session?.deviceId)
    }

    /// `DELETE /account/devices/{id}` → 204; the device's sessions end.
    @Sendable func forgetDevice(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await accounts.forgetDevice(
            userId: try context.requireUser(), deviceId: try context.parameters.require("id"))
        return Response(status: .noContent)
    }

    /// `GET /account/activity`.
    @Sendable func activity(_ request: Request, context: AppRequestContext) async throws -> AccountActivity {
        try await accounts.activity(userId: try context.requireUser())
    }
}

extension AccountSecurityResponse: ResponseEncodable {}
extension RememberedDeviceList: ResponseEncodable {}
extension AccountActivity: ResponseEncodable {}
extension PhoneVerificationResponse: ResponseEncodable {}
