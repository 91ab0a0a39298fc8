import CountersignAPI
import CountersignCore
import CountersignOpenAPISpike
import Foundation
import OpenAPIRuntime

/// Spike (issue 11): the benchmark's hot path — `GET /biometric/auth/options`,
/// `POST /biometric/auth/verify`, `POST /user/topup` — served by swift-openapi-generator's code
/// from `openapi.yaml`, calling the services the hand-written controllers call. The generated types
/// are mapped to and from the CountersignAPI types here; adopting the generator for real would
/// instead rewrite the services and the SDK on the generated types.
struct HotPathAPI: APIProtocol {
    let biometric: BiometricService
    let throttle: RequestThrottle
    let user: UserController

    func authenticationOptionsFromQuery(_ input: Operations.authenticationOptionsFromQuery.Input) async throws -> Operations.authenticationOptionsFromQuery.Output {
        let current = try OpenAPIRequest.require()
        let query = input.query
        let intent = AuthenticationOptionsRequest(
            amount: query.amount, productCode: query.productCode.rawValue, recipientPhone: query.recipientPhone, supplierSlug: query.supplierSlug?.rawValue
        )
        let userId = try current.context.requireUser()
        try throttle.check(current.request, context: current.context, address: [.challengeAddress], account: [.challengeAccount], key: userId)
        let options = try await biometric.authenticationOptions(userId: userId, intent)
        return .ok(.init(body: .json(try Self.generated(options))))
    }

    func authenticationVerify(_ input: Operations.authenticationVerify.Input) async throws -> Operations.authenticationVerify.Output {
        let current = try OpenAPIRequest.require()
        let assertion: Components.Schemas.AuthenticationResponseJSON
        switch input.body {
        case .json(let value): assertion = value
        }
        let body = AuthenticationResponseJSON(
            id: assertion.id, rawId: assertion.rawId, type: assertion._type.rawValue,
            response: .init(
                clientDataJSON: assertion.response.clientDataJSON, authenticatorData: assertion.response.authenticatorData,
                signature: assertion.response.signature, userHandle: assertion.response.userHandle
            )
        )
        let verified = try await biometric.verifyAuthentication(userId: try current.context.requireUser(), body)
        guard verified.verified, let token = verified.verificationToken, let expiresIn = verified.expiresIn else {
            throw APIError(.internalServerError, "internal_error", "A verified answer without a token.")
        }
        return .ok(.init(body: .json(.init(verified: true, verificationToken: token, expiresIn: expiresIn, message: verified.message))))
    }

    func topUp(_ input: Operations.topUp.Input) async throws -> Operations.topUp.Output {
        let current = try OpenAPIRequest.require()
        let generated: Components.Schemas.TopUpRequest
        switch input.body {
        case .json(let value): generated = value
        }
        let body = TopUpRequest(
            amount: generated.amount, productCode: generated.productCode.rawValue, recipientPhone: generated.recipientPhone,
            supplierSlug: generated.supplierSlug?.rawValue, useCashback: generated.useCashback, verificationToken: generated.verificationToken,
            pin: generated.pin
        )
        let userId = try current.context.requireUser()
        switch try await user.topUp(body, idempotencyKey: input.headers.Idempotency_hyphen_Key, userId: userId, request: current.request, context: current.context) {
        case .ran(let response):
            return .ok(.init(body: .json(try Self.generated(response))))
        case .replayed(_, let stored):
            // Only 200 answers are stored; the generated type re-encodes the stored text.
            let response = try JSONDecoder().decode(TopUpResponse.self, from: Data(stored.utf8))
            return .ok(.init(headers: .init(Idempotent_hyphen_Replayed: ._true), body: .json(try Self.generated(response))))
        }
    }

    // MARK: - CountersignAPI → generated types

    /// A value the generated enum does not list: the server produced something its spec does not allow.
    static func member<T: RawRepresentable>(_ value: T.RawValue, of type: T.Type) throws -> T {
        guard let member = T(rawValue: value) else {
            throw APIError(.internalServerError, "internal_error", "\(value) is not a \(T.self).")
        }
        return member
    }

    static func generated(_ options: AuthenticationOptionsResponse) throws -> Components.Schemas.AuthenticationOptionsResponse {
        let intent = options.transaction
        return .init(
            challenge: options.challenge, rpId: options.rpId,
            allowCredentials: try options.allowCredentials.map { (descriptor: CredentialDescriptor) throws -> Components.Schemas.CredentialDescriptor in
                .init(id: descriptor.id, _type: try member(descriptor.type, of: Components.Schemas.CredentialDescriptor._typePayload.self), transports: descriptor.transports)
            },
            userVerification: try member(options.userVerification, of: Components.Schemas.AuthenticationOptionsResponse.userVerificationPayload.self),
            timeout: options.timeout,
            transaction: .init(
                kind: try member(intent.kind, of: Components.Schemas.PaymentTransaction.kindPayload.self), amount: intent.amount,
                currency: intent.currency, productCode: try member(intent.productCode, of: Components.Schemas.ProductCode.self),
                recipientPhone: intent.recipientPhone, supplierSlug: try member(intent.supplierSlug, of: Components.Schemas.SupplierSlug.self)
            ),
            nonce: options.nonce,
            securePaymentConfirmation: options.securePaymentConfirmation.map { (spc: SecurePaymentConfirmationData) -> Components.Schemas.SecurePaymentConfirmationData in
                .init(
                    rpId: spc.rpId, credentialIds: spc.credentialIds, challenge: spc.challenge, payeeName: spc.payeeName, payeeOrigin: spc.payeeOrigin,
                    total: .init(currency: spc.total.currency, value: spc.total.value),
                    instrument: .init(displayName: spc.instrument.displayName, icon: spc.instrument.icon), timeout: spc.timeout
                )
            }
        )
    }

    static func generated(_ response: TopUpResponse) throws -> Components.Schemas.TopUpResponse {
        let data = response.data
        return .init(
            success: response.success, message: response.message,
            code: try response.code.map { try member($0, of: Components.Schemas.TopUpResponse.codePayload.self) },
            data: .init(
                transactionId: data.transactionId, status: try member(data.status, of: Components.Schemas.TopUpResponse.dataPayload.statusPayload.self),
                amount: data.amount, balance: data.balance, timestamp: try Date(data.timestamp, strategy: .iso8601),
                cashbackUsed: data.cashbackUsed, cashbackEarned: data.cashbackEarned
            )
        )
    }
}
