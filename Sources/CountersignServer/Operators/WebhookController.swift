import CountersignAPI
import HTTPTypes
import Hummingbird

/// `/operator/webhooks*`: the operator's webhook endpoints, for signed-in operators only (403
/// `not_operator`). Registering one takes the operator's PIN, as the console's other actions do.
package struct WebhookController {
    let operators: OperatorService
    let console: OperatorConsole
    let webhooks: WebhookService
    let throttle: RequestThrottle

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.operatorWebhookCreate, use: create)
        group.on(.operatorWebhooks, use: list)
        group.on(.operatorWebhookDelete, use: remove)
        group.on(.operatorWebhookDeliveries, use: deliveries)
        group.on(.operatorWebhookEnable, use: enable)
        group.on(.operatorWebhookRedeliver, use: redeliver)
    }

    /// `POST /operator/webhooks {url, events, pin}` → 201 with the endpoint and its secret (shown once).
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws
        -> EditedResponse<WebhookEndpointCreated>
    {
        var request = request
        let operatorId = try await requireOperator(context)
        try await throttle.check(request, context: context, account: [.pinAccount], key: operatorId)
        let body = try await request.decodeJSON(as: WebhookEndpointCreateRequest.self, context: context)
        try await console.confirmPin(operatorId: operatorId, pin: body.pin)
        let created = try await webhooks.create(
            url: body.url, events: body.events, operatorId: operatorId, via: "console")
        return EditedResponse(status: .created, response: created)
    }

    /// `GET /operator/webhooks`.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> WebhookEndpointList {
        _ = try await requireOperator(context)
        return WebhookEndpointList(endpoints: try await webhooks.list())
    }

    /// `DELETE /operator/webhooks/{endpointId}` → 204.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let operatorId = try await requireOperator(context)
        try await notFoundAs404 {
            try await webhooks.remove(
                id: try context.parameters.require("endpointId"), operatorId: operatorId, via: "console")
        }
        return .noContent
    }

    /// `GET /operator/webhooks/{endpointId}/deliveries`.
    @Sendable func deliveries(_ request: Request, context: AppRequestContext) async throws -> WebhookDeliveryLog {
        _ = try await requireOperator(context)
        let id = try context.parameters.require("endpointId")
        return try await notFoundAs404 { try await webhooks.deliveryLog(endpointId: id) }
    }

    /// `POST /operator/webhooks/{endpointId}/enable` → the endpoint.
    @Sendable func enable(_ request: Request, context: AppRequestContext) async throws -> WebhookEndpointSummary {
        let operatorId = try await requireOperator(context)
        let id = try context.parameters.require("endpointId")
        return try await notFoundAs404 { try await webhooks.enable(id: id, operatorId: operatorId, via: "console") }
    }

    /// `POST /operator/webhooks/{endpointId}/events/{eventId}/redeliver` → 202: sent again soon.
    @Sendable func redeliver(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let operatorId = try await requireOperator(context)
        let (endpointId, eventId) = (
            try context.parameters.require("endpointId"), try context.parameters.require("eventId")
        )
        try await notFoundAs404 {
            try await webhooks.redeliver(
                endpointId: endpointId, eventId: eventId, operatorId: operatorId, via: "console")
        }
        return .accepted
    }

    private func requireOperator(_ context: AppRequestContext) async throws -> String {
        let operatorId = try context.requireUser()
        try await operators.requireOperator(operatorId)
        return operatorId
    }

    /// A missing endpoint or event is a 404 the error middleware answers as such.
    private func notFoundAs404<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as APIError
            where error.code == .webhookEndpointNotFound || error.code == .webhookEventNotFound
        {
            throw MissingResource(error: error)
        }
    }
}

extension WebhookEndpointCreated: ResponseEncodable {}
extension WebhookEndpointList: ResponseEncodable {}
extension WebhookEndpointSummary: ResponseEncodable {}
extension WebhookDeliveryLog: ResponseEncodable {}
