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
    package func record(
        type: String, resourceType: String, resourceId: String, data: some Encodable, now: Int64,
        on sql: any SQLExecutor
    ) async throws -> String? {
        let subscribed = try await sql.webhookEndpoints.subscribed(to: type)
        guard !subscribed.isEmpty else { return nil }
        let id = Identifier.make("msg")
        let payload = try Self.body(type: type, timestamp: now, data: data)
        let seq =
            try await sql.first(
                """
                SELECT CAST(COALESCE(MAX(resource_seq), 0) + 1 AS BIGINT) AS next FROM webhook_events
                WHERE resource_type = $1 AND resource_id = $2
                """, [.text(resourceType), .text(resourceId)]
            )?.int("next") ?? 1
        try await sql.execute(
            """
            INSERT INTO webhook_events (id, type, resource_type, resource_id, resource_seq, payload, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(id), .text(type), .text(resourceType), .text(resourceId), .integer(seq), .text(payload),
                .integer(now),
            ])
        for endpointId in subscribed {
            try await sql.execute(
                """
                INSERT INTO webhook_deliveries (id, event_id, endpoint_id, resource_key, resource_seq, status,
                    next_attempt_at, created_at)
                VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6)
                """,
                [
                    .text(Identifier.make("whd")), .text(id), .text(endpointId), .text(resourceType + ":" + resourceId),
                    .integer(seq), .integer(now),
                ])
        }
        return id
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
