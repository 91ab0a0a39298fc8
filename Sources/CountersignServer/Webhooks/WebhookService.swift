import CountersignAPI
import CountersignStore

/// The operator's webhook endpoints: registering (the secret answered once), listing, removing,
/// enabling again, the delivery log and redelivery. Each change is recorded in the operator action
/// log in its own transaction; `via` is `console` or `cli`.
package struct WebhookService: Sendable {
    let database: any Database
    let clock: WallClock
    let policy: WebhookTargetPolicy

    package init(database: any Database, clock: WallClock, policy: WebhookTargetPolicy) {
        (self.database, self.clock, self.policy) = (database, clock, policy)
    }

    /// The most event types one endpoint lists.
    static let maxEvents = 64
    /// The most live endpoints: each event is sent to every subscribed one, so their number bounds
    /// the work one movement makes.
    package static let maxEndpoints = 16

    /// Registers `url` for `events`; 422 `webhook_url_refused` or `unknown_webhook_event`.
    package func create(url: String, events: [String], operatorId: String?, via: String) async throws
        -> WebhookEndpointCreated
    {
        if let refusal = policy.refusal(of: url) { throw APIError(.webhookURLRefused, refusal) }
        let types = Array(Set(events)).sorted()
        guard !types.isEmpty, types.count <= Self.maxEvents else {
            throw APIError(.unknownWebhookEvent, "events must list 1 to \(Self.maxEvents) event types, or \"*\".")
        }
        if let unknown = types.first(where: { $0 != WebhookEventType.all && !WebhookEventType.known.contains($0) }) {
            throw APIError(
                .unknownWebhookEvent,
                "\(unknown.prefix(64)) is not an event type; use \"*\" or: "
                    + WebhookEventType.known.joined(separator: ", ") + ".")
        }
        let now = clock.nowMillis()
        let endpoint = WebhookEndpoint(
            id: Identifier.make("whe"), url: url, secret: WebhookSigner.makeSecret(), eventTypes: types, enabled: true,
            failingSince: nil, disabledAt: nil, createdAt: now)
        let engine = database.engine
        try await database.transaction { sql in
            // Parallel registrations count one at a time (SQLite has one writer already).
            if engine == .postgres { try await sql.webhookEndpoints.lockRegistrations() }
            guard try await sql.webhookEndpoints.list().count < Self.maxEndpoints else {
                throw APIError(
                    .webhookEndpointLimit,
                    "\(Self.maxEndpoints) webhook endpoints are registered already; remove one first.")
            }
            try await sql.webhookEndpoints.insert(endpoint, createdBy: operatorId)
            try await sql.operators.record(
                Self.action(
                    "add_webhook", operatorId: operatorId, via: via, now: now,
                    detail: "\(endpoint.id) \(url.prefix(200)) for \(types.joined(separator: ","))"))
        }
        return WebhookEndpointCreated(endpoint: Self.wire(endpoint), secret: endpoint.secret)
    }

    /// The live endpoints, oldest first.
    package func list() async throws -> [WebhookEndpointSummary] {
        return try await database.read { sql in try await sql.webhookEndpoints.list() }.map(Self.wire)
    }

    /// Removes an endpoint: nothing more is sent to it. 404 `webhook_endpoint_not_found`.
    package func remove(id: String, operatorId: String?, via: String) async throws {
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard try await sql.webhookEndpoints.remove(id: id, now: now) else { throw Self.notFound }
            try await sql.operators.record(
                Self.action("remove_webhook", operatorId: operatorId, via: via, now: now, detail: id))
        }
    }

    /// Enables an endpoint again (after three days of failures disabled it). 404 if there is none.
    package func enable(id: String, operatorId: String?, via: String) async throws -> WebhookEndpointSummary {
        let now = clock.nowMillis()
        return try await database.transaction { sql in
            guard try await sql.webhookEndpoints.enable(id: id),
                let endpoint = try await sql.webhookEndpoints.find(id: id)
            else { throw Self.notFound }
            try await sql.operators.record(
                Self.action("enable_webhook", operatorId: operatorId, via: via, now: now, detail: id))
            return Self.wire(endpoint)
        }
    }

    /// The latest 100 attempts at an endpoint, newest first. 404 if there is no such endpoint.
    package func deliveryLog(endpointId: String) async throws -> WebhookDeliveryLog {
        let attempts = try await database.read { sql in
            guard try await sql.webhookEndpoints.find(id: endpointId) != nil else { throw Self.notFound }
            return try await sql.webhookDeliveries.attempts(endpointId: endpointId, limit: 100)
        }
        return WebhookDeliveryLog(
            endpointId: endpointId,
            attempts: attempts.map {
                WebhookAttemptEntry(
                    id: $0.id, eventId: $0.eventId, eventType: $0.eventType,
                    attemptedAt: WallClock.iso8601(millis: $0.attemptedAt), statusCode: $0.statusCode, error: $0.error,
                    latencyMillis: $0.latencyMillis)
            })
    }

    /// Sends an event to an endpoint again, soon. 404 `webhook_endpoint_not_found` or
    /// `webhook_event_not_found` (the endpoint never had it).
    package func redeliver(endpointId: String, eventId: String, operatorId: String?, via: String) async throws {
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard try await sql.webhookEndpoints.find(id: endpointId) != nil else { throw Self.notFound }
            guard try await sql.webhookDeliveries.redeliver(eventId: eventId, endpointId: endpointId, now: now) else {
                throw APIError(.webhookEventNotFound, "That endpoint was never sent that event.")
            }
            try await sql.operators.record(
                Self.action(
                    "redeliver_webhook", operatorId: operatorId, via: via, now: now,
                    detail: "\(eventId) to \(endpointId)"))
        }
    }

    static let notFound = APIError(.webhookEndpointNotFound, "No webhook endpoint has that id.")

    static func wire(_ endpoint: WebhookEndpoint) -> WebhookEndpointSummary {
        WebhookEndpointSummary(
            id: endpoint.id, url: endpoint.url, events: endpoint.eventTypes, enabled: endpoint.enabled,
            failingSince: endpoint.failingSince.map(WallClock.iso8601(millis:)),
            disabledAt: endpoint.disabledAt.map(WallClock.iso8601(millis:)),
            createdAt: WallClock.iso8601(millis: endpoint.createdAt))
    }

    private static func action(_ name: String, operatorId: String?, via: String, now: Int64, detail: String)
        -> OperatorAction
    {
        OperatorAction(
            id: Identifier.make("opa"), operatorId: operatorId, via: via, action: name, targetUserId: nil,
            detail: detail, createdAt: now)
    }
}
