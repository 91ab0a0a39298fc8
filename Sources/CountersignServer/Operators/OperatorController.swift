import CountersignAPI
import HTTPTypes
import Hummingbird

/// `/operator/*`: the operator console's API, for signed-in operators only (403 `not_operator`,
/// checked against the store on every call, so a revoked operator stops at once): headline numbers,
/// the action log, the ledger audit, and users' accounts (see `OperatorConsole` for the actions).
package struct OperatorController {
    let operators: OperatorService
    let console: OperatorConsole
    let marketplace: MarketplaceService
    let throttle: RequestThrottle
    let metrics: ServerMetrics
    let currency: String

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.operatorOverview, use: overview)
        group.on(.operatorActions, use: actions)
        group.on(.operatorAudit, use: audit)
        group.on(.operatorUsers, use: users)
        group.on(.operatorUser, use: user)
        group.on(.operatorUnlock, use: unlock)
        group.on(.operatorRevokeKey, use: revokeKey)
        group.on(.operatorFund, use: fund)
        group.on(.operatorRefundOrder, use: refundOrder)
        group.on(.operatorReverseTransfer, use: reverseTransfer)
        group.on(.operatorReverseFunding, use: reverseFunding)
        group.on(.operatorAssignTier, use: assignTier)
    }

    /// `PUT /operator/users/{userId}/tier {tier, pin}` → the account after.
    @Sendable func assignTier(_ request: Request, context: AppRequestContext) async throws -> OperatorUserDetail {
        var request = request
        let (operatorId, target) = try await prepare(request, context: context)
        let body = try await request.decodeJSON(as: AssignTierRequest.self, context: context)
        try await console.assignTier(operatorId: operatorId, userId: target, tier: body.tier, pin: body.pin)
        return try await console.detail(userId: target)
    }

    /// `GET /operator/overview`.
    @Sendable func overview(_ request: Request, context: AppRequestContext) async throws -> OperatorOverview {
        try await operators.requireOperator(try context.requireUser())
        return try await operators.overview(headline: metrics.headline, currency: currency)
    }

    /// `GET /operator/actions`: the latest 50, newest first.
    @Sendable func actions(_ request: Request, context: AppRequestContext) async throws -> OperatorActionList {
        try await operators.requireOperator(try context.requireUser())
        return OperatorActionList(actions: try await operators.actions().map(OperatorService.wire))
    }

    /// `POST /operator/audit`: runs the ledger audit now, records it (and who asked) and answers the run.
    /// The audit reads the whole ledger: throttled (`operator-audit`, per process, whoever asks).
    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> OperatorAuditRun {
        let userId = try context.requireUser()
        try await operators.requireOperator(userId)
        try await throttle.check(request, context: context, account: [.operatorAudit], key: "store")
        let (_, run) = try await operators.audit(via: "console", operatorId: userId)
        return OperatorService.wire(run)
    }

    /// `GET /operator/users?phone=+3161234`: at most 20 users whose number starts so; limited per
    /// operator (`operator-search`) and recorded.
    @Sendable func users(_ request: Request, context: AppRequestContext) async throws -> OperatorUserList {
        let operatorId = try context.requireUser()
        try await operators.requireOperator(operatorId)
        try await throttle.check(request, context: context, account: [.operatorSearch], key: operatorId)
        return try await console.search(
            operatorId: operatorId, phonePrefix: request.uri.queryParameters["phone"].map(String.init) ?? "")
    }

    /// `GET /operator/users/{userId}`.
    @Sendable func user(_ request: Request, context: AppRequestContext) async throws -> OperatorUserDetail {
        try await operators.requireOperator(try context.requireUser())
        return try await console.detail(userId: try context.parameters.require("userId"))
    }

    /// `POST /operator/users/{userId}/unlock {pin}` → the account after.
    @Sendable func unlock(_ request: Request, context: AppRequestContext) async throws -> OperatorUserDetail {
        var request = request
        let (operatorId, target) = try await prepare(request, context: context)
        let body = try await request.decodeJSON(as: OperatorPinRequest.self, context: context)
        try await console.unlock(operatorId: operatorId, userId: target, pin: body.pin)
        return try await console.detail(userId: target)
    }

    /// `POST /operator/users/{userId}/keys/{credentialId}/revoke {pin}` → the account after.
    @Sendable func revokeKey(_ request: Request, context: AppRequestContext) async throws -> OperatorUserDetail {
        var request = request
        let (operatorId, target) = try await prepare(request, context: context)
        let body = try await request.decodeJSON(as: OperatorPinRequest.self, context: context)
        do {
            try await console.revokeKey(
                operatorId: operatorId, userId: target, credentialId: try context.parameters.require("credentialId"),
                pin: body.pin)
        } catch let error as APIError where error.code == .unknownCredential {
            throw MissingResource(error: error)
        }
        return try await console.detail(userId: target)
    }

    /// `POST /operator/users/{userId}/fund {pin, amount, currency?}` with `Idempotency-Key` (400
    /// `missing_idempotency_key` without): 201 with the funding, or 200 `Idempotent-Replayed: true`
    /// with the one the key made.
    @Sendable func fund(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<OperatorFunding>
    {
        var request = request
        let (operatorId, target) = try await prepare(request, context: context)
        let body = try await request.decodeJSON(as: OperatorFundRequest.self, context: context)
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            throw APIError(.missingIdempotencyKey, "Funding a wallet needs an Idempotency-Key header.")
        }
        let (funding, replayed) = try await console.fund(
            operatorId: operatorId, userId: target, amount: body.amount, currency: body.currency, pin: body.pin,
            key: key)
        guard replayed else { return EditedResponse(status: .created, response: funding) }
        return EditedResponse(status: .ok, headers: [.idempotentReplayed: "true"], response: funding)
    }

    /// `POST /operator/orders/{id}/refunds {amount, reason, pin}` with `Idempotency-Key`: any paid
    /// order, before or after its proceeds are released → 201 the refund; a retry with the key → 200
    /// the refund it made, `Idempotent-Replayed: true`.
    @Sendable func refundOrder(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        RefundResponse
    > {
        var request = request
        let operatorId = try context.requireUser()
        try await operators.requireOperator(operatorId)
        try await throttle.check(request, context: context, account: [.pinAccount], key: operatorId)
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            throw APIError(.missingIdempotencyKey, "A refund needs an Idempotency-Key header.")
        }
        let body = try await request.decodeJSON(as: OperatorRefundRequest.self, context: context)
        try await console.confirmPin(operatorId: operatorId, pin: body.pin)
        let (refund, replayed) = try await marketplace.refund(
            orderId: try context.parameters.require("id"), by: .operator(operatorId),
            CreateRefundRequest(amount: body.amount, reason: body.reason), idempotencyKey: key)
        return MarketplaceController.answer(refund, replayed: replayed)
    }

    /// `POST /operator/transfers/{id}/reverse {pin, reason}` → 201 the reversal.
    @Sendable func reverseTransfer(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        OperatorReversal
    > {
        try await reverse(.transfer, request, context: context)
    }

    /// `POST /operator/fundings/{id}/reverse {pin, reason}` → 201 the reversal.
    @Sendable func reverseFunding(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        OperatorReversal
    > {
        try await reverse(.funding, request, context: context)
    }

    private func reverse(_ kind: ReversalOriginal, _ request: Request, context: AppRequestContext) async throws
        -> EditedResponse<OperatorReversal>
    {
        var request = request
        let operatorId = try context.requireUser()
        try await operators.requireOperator(operatorId)
        try await throttle.check(request, context: context, account: [.pinAccount], key: operatorId)
        let body = try await request.decodeJSON(as: OperatorReverseRequest.self, context: context)
        return EditedResponse(
            status: .created,
            response: try await console.reverse(
                kind, id: try context.parameters.require("id"), operatorId: operatorId, pin: body.pin,
                reason: body.reason))
    }

    /// An action's common part: an operator, within the PIN throttle; the operator and the target.
    private func prepare(_ request: Request, context: AppRequestContext) async throws -> (String, String) {
        let operatorId = try context.requireUser()
        try await operators.requireOperator(operatorId)
        try await throttle.check(request, context: context, account: [.pinAccount], key: operatorId)
        return (operatorId, try context.parameters.require("userId"))
    }
}

extension OperatorOverview: ResponseEncodable {}
extension OperatorUserList: ResponseEncodable {}
extension OperatorUserDetail: ResponseEncodable {}
extension OperatorFunding: ResponseEncodable {}
extension OperatorActionList: ResponseEncodable {}
extension OperatorAuditRun: ResponseEncodable {}
extension OperatorReversal: ResponseEncodable {}
