/// `POST /operator/webhooks`: a receiver for signed webhooks. `pin` is the operator's own PIN: a
/// stolen session alone cannot send the money's events somewhere new.
public struct WebhookEndpointCreateRequest: Codable, Sendable, Equatable {
    /// https, at most 2048 bytes.
    public var url: String
    /// Event types from the known list, or `*` for all.
    public var events: [String]
    public var pin: String

    public init(url: String, events: [String], pin: String) {
        (self.url, self.events, self.pin) = (url, events, pin)
    }
}

/// A webhook endpoint as the operator sees it; never its secret, which only creation answers.
public struct WebhookEndpointSummary: Codable, Sendable, Equatable {
    public var id: String
    public var url: String
    public var events: [String]
    /// False once deliveries have failed for three days; `POST …/enable` turns it back on.
    public var enabled: Bool
    /// When the current run of failed attempts began; absent while deliveries succeed.
    public var failingSince: String?
    public var disabledAt: String?
    public var createdAt: String

    public init(
        id: String, url: String, events: [String], enabled: Bool, failingSince: String?, disabledAt: String?,
        createdAt: String
    ) {
        (self.id, self.url, self.events, self.enabled, self.failingSince, self.disabledAt, self.createdAt) = (
            id, url, events, enabled, failingSince, disabledAt, createdAt
        )
    }
}

/// The answer to creating an endpoint: the endpoint and its signing secret (`whsec_…`), shown once.
public struct WebhookEndpointCreated: Codable, Sendable, Equatable {
    public var endpoint: WebhookEndpointSummary
    public var secret: String

    public init(endpoint: WebhookEndpointSummary, secret: String) { (self.endpoint, self.secret) = (endpoint, secret) }
}

/// `GET /operator/webhooks`.
public struct WebhookEndpointList: Codable, Sendable, Equatable {
    public var endpoints: [WebhookEndpointSummary]

    public init(endpoints: [WebhookEndpointSummary]) { self.endpoints = endpoints }
}

/// One attempt to deliver an event, in an endpoint's delivery log.
public struct WebhookAttemptEntry: Codable, Sendable, Equatable {
    public var id: String
    /// The event (`webhook-id`) and its type.
    public var eventId: String
    public var eventType: String
    public var attemptedAt: String
    /// The receiver's HTTP status; absent when there was none (refused, timed out, unreachable).
    public var statusCode: Int64?
    public var error: String?
    public var latencyMillis: Int64

    public init(
        id: String, eventId: String, eventType: String, attemptedAt: String, statusCode: Int64?, error: String?,
        latencyMillis: Int64
    ) {
        (self.id, self.eventId, self.eventType, self.attemptedAt) = (id, eventId, eventType, attemptedAt)
        (self.statusCode, self.error, self.latencyMillis) = (statusCode, error, latencyMillis)
    }
}

/// `GET /operator/webhooks/{endpointId}/deliveries`: the latest 100 attempts, newest first.
public struct WebhookDeliveryLog: Codable, Sendable, Equatable {
    public var endpointId: String
    public var attempts: [WebhookAttemptEntry]

    public init(endpointId: String, attempts: [WebhookAttemptEntry]) {
        (self.endpointId, self.attempts) = (endpointId, attempts)
    }
}

extension Endpoint {
    /// Register a webhook endpoint.
    package static let operatorWebhookCreate = Endpoint(.post, "/operator/webhooks")
    /// The webhook endpoints.
    package static let operatorWebhooks = Endpoint(.get, "/operator/webhooks")
    /// Remove a webhook endpoint.
    package static let operatorWebhookDelete = Endpoint(.delete, "/operator/webhooks/{endpointId}")
    /// An endpoint's delivery log.
    package static let operatorWebhookDeliveries = Endpoint(.get, "/operator/webhooks/{endpointId}/deliveries")
    /// Enable an endpoint again after it was disabled.
    package static let operatorWebhookEnable = Endpoint(.post, "/operator/webhooks/{endpointId}/enable")
    /// Send an event to an endpoint again.
    package static let operatorWebhookRedeliver = Endpoint(
        .post, "/operator/webhooks/{endpointId}/events/{eventId}/redeliver")
}
