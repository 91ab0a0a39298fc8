import CountersignStore
import Foundation

/// The outbox: records an event in the caller's transaction, so it commits (or rolls back) with the
/// money movement it reports, and a committed movement's event is never lost to a crash.
///
/// An event is recorded only for the endpoints subscribed to its type when it commits (enabled, not
/// removed): with none, nothing is written, so the table grows only with what will be sent. Each
/// event gets the next number among its resource's events (`resource_seq`); the movement has already
/// updated (and so locked) the resource's row, so two movements of one resource number in order.
package struct WebhookOutbox: Sendable {

    package init() {}

    /// Records `type` for the resource in `data` (the resource and its state as of this commit);
    /// returns the event id (`webhook-id`), or nil if no endpoint is subscribed.
    @discardableResult
    /// `anyEndpoint: false`: the caller read with its own work in this transaction that no endpoint
    /// is live, and the endpoints are not read again.
    package func record(
        type: String, resourceType: String, resourceId: String, data: some Encodable, now: Int64,
        on sql: any SQLExecutor, anyEndpoint: Bool = true
    ) async throws -> String? {
        guard anyEndpoint else { return nil }
        return try await record(
            Self.event(type: type, resourceType: resourceType, resourceId: resourceId, data: data, now: now),
            on: sql)
    }

    /// Records `event` for the endpoints subscribed to its type; returns its id, or nil if none is.
    @discardableResult
    package func record(_ event: Event, on sql: any SQLExecutor) async throws -> String? {
        let subscribed = try await sql.webhookEndpoints.subscribed(to: event.type)
        guard !subscribed.isEmpty else { return nil }
        try await sql.webhookEvents.insert(event, endpoints: subscribed)
        return event.id
    }

    /// An event to record, its body encoded.
    package struct Event: Sendable {
        let id: String
        let type: String
        let resourceType: String
        let resourceId: String
        let payload: String
        let now: Int64
    }

    /// `type` for the resource in `data`, with a new id and its body.
    static func event(type: String, resourceType: String, resourceId: String, data: some Encodable, now: Int64)
        throws -> Event
    {
        Event(
            id: Identifier.make("msg"), type: type, resourceType: resourceType, resourceId: resourceId,
            payload: try body(type: type, timestamp: now, data: data), now: now)
    }

    /// The Standard Webhooks body: `{"data": {…}, "timestamp": "…", "type": "…"}`, keys sorted.
    static func body(type: String, timestamp: Int64, data: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = WebhookBody(type: type, timestamp: WallClock.iso8601(millis: timestamp), data: data)
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }
}

/// What every webhook carries.
struct WebhookBody<Payload: Encodable>: Encodable {
    let type: String
    let timestamp: String
    let data: Payload
}
