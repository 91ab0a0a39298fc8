import CountersignAPI
import Hummingbird

/// `/biometric`: WebAuthn registration and transaction-bound authentication.
package struct BiometricController {
    let biometric: BiometricService
    let throttle: RequestThrottle

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.registrationOptions, use: registrationOptions)
        group.on(.registrationVerify, use: registrationVerify)
        group.on(.stepUpOptions, use: stepUpOptions)
        group.on(.listCredentials, use: credentials)
        group.on(.revokeCredential, use: revokeCredential)
        group.on(.authenticationOptionsFromQuery, use: authenticationOptionsFromQuery)
        group.on(.authenticationOptionsFromBody, use: authenticationOptionsFromBody)
        group.on(.authenticationVerify, use: authenticationVerify)
    }

    /// `POST /biometric/register/options {pin} | {assertion}` → WebAuthn creation options, after
    /// the step-up; 401 `step_up_required` without one.
    @Sendable func registrationOptions(_ request: Request, context: AppRequestContext) async throws
        -> RegistrationOptionsResponse
    {
        var request = request
        // No body at all is a request without a step-up (401 step_up_required), not malformed JSON.
        var body = RegistrationOptionsRequest()
        let bodyBytes = try await request.bodyBytes(context: context).readableBytes
        if request.headers[.contentType] != nil || bodyBytes > 0 {
            body = try await request.decodeJSON(as: RegistrationOptionsRequest.self, context: context)
        }
        let userId = try context.requireUser()
        try await throttle.check(
            request, context: context, address: [.challengeAddress],
            account: [.challengeAccount] + (body.pin == nil ? [] : [.pinAccount]), key: userId
        )
        return try await biometric.registrationOptions(userId: userId, stepUp: body, session: context.session)
    }

    /// `POST /biometric/step-up/options` → request options for an assertion that authorizes adding a key.
    @Sendable func stepUpOptions(_ request: Request, context: AppRequestContext) async throws -> StepUpOptionsResponse {
        try await throttle.check(
            request, context: context, address: [.challengeAddress], account: [.challengeAccount],
            key: try context.requireUser())
        return try await biometric.stepUpOptions(userId: try context.requireUser())
    }

    /// `GET /biometric/credentials` → `{credentials: [...]}`, the user's live keys.
    @Sendable func credentials(_ request: Request, context: AppRequestContext) async throws -> CredentialList {
        try await biometric.credentialList(userId: try context.requireUser())
    }

    /// `DELETE /biometric/credentials/{id}` → 204; the key authorizes nothing from now on. A key the
    /// user does not have is the path's missing resource: 404 `unknown_credential`.
    @Sendable func revokeCredential(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status
    {
        do {
            try await biometric.revokeCredential(
                userId: try context.requireUser(), id: try context.parameters.require("id"))
        } catch let error as APIError where error.code == .unknownCredential {
            throw MissingResource(error: error)
        }
        return .noContent
    }

    /// `POST /biometric/register/verify` → 201 `{verified, credentialId}`.
    @Sendable func registrationVerify(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        RegistrationVerifyResponse
    > {
        var request = request
        let body = try await request.decodeJSON(as: RegistrationResponseJSON.self, context: context)
        return .init(
            status: .created, response: try await biometric.verifyRegistration(userId: try context.requireUser(), body))
    }

    /// `GET /biometric/auth/options?amount=&productCode=&recipientPhone=&supplierSlug=`.
    @Sendable func authenticationOptionsFromQuery(_ request: Request, context: AppRequestContext) async throws
        -> AuthenticationOptionsResponse
    {
        let query = FormQuery(request)
        func required(_ name: String) throws -> String {
            guard let value = query[name], !value.isEmpty else {
                throw APIError(.missingField, "\(name) is required.")
            }
            return value
        }
        guard let amount = Int64(try required("amount")) else {
            throw APIError(.invalidType, "amount must be an integer number of minor units.")
        }
        let intent = AuthenticationOptionsRequest(
            amount: amount, productCode: try required("productCode"), recipientPhone: try required("recipientPhone"),
            supplierSlug: query["supplierSlug"]
        )
        try await throttle.check(
            request, context: context, address: [.challengeAddress], account: [.challengeAccount],
            key: try context.requireUser())
        return try await biometric.authenticationOptions(
            userId: try context.requireUser(), intent, session: context.session)
    }

    /// `POST /biometric/auth/options` with the intent as a JSON body.
    @Sendable func authenticationOptionsFromBody(_ request: Request, context: AppRequestContext) async throws
        -> AuthenticationOptionsResponse
    {
        var request = request
        let intent = try await request.decodeJSON(as: AuthenticationOptionsRequest.self, context: context)
        try await throttle.check(
            request, context: context, address: [.challengeAddress], account: [.challengeAccount],
            key: try context.requireUser())
        return try await biometric.authenticationOptions(
            userId: try context.requireUser(), intent, session: context.session)
    }

    /// `POST /biometric/auth/verify` → `{verified, verificationToken, expiresIn, message}`.
    @Sendable func authenticationVerify(_ request: Request, context: AppRequestContext) async throws
        -> AuthenticationVerifyResponse
    {
        var request = request
        let body: AuthenticationResponseJSON
        do {
            body = try await request.decodeJSON(as: AuthenticationResponseJSON.self, context: context)
        } catch let error as APIError {
            throw VerificationFailure(error: error)
        }
        return try await biometric.verifyAuthentication(
            userId: try context.requireUser(), body, session: context.session)
    }
}

extension RegistrationOptionsResponse: ResponseEncodable {}
extension RegistrationVerifyResponse: ResponseEncodable {}
extension AuthenticationOptionsResponse: ResponseEncodable {}
extension AuthenticationVerifyResponse: ResponseEncodable {}
extension CredentialRequestOptions: ResponseEncodable {}
extension CredentialList: ResponseEncodable {}
