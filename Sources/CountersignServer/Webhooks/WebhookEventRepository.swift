import CountersignStore

/// The outbox's events (`webhook_events`) and a delivery of each to every subscribed endpoint
/// (`webhook_deliveries`).
package struct WebhookEventRepository {
    let sql: any SQLExecutor

    /// Records event `id` as the next of its resource's events (`resource_seq`), and a pending
    /// delivery of it to each of `endpoints`, due at `now`.
    func insert(
        id: String, type: String, resourceType: String, resourceId: String, payload: String, endpoints: [String],
        now: Int64
    ) async throws {
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
        for endpointId in endpoints {
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
    }
}

extension SQLExecutor {
    /// `WebhookEventRepository` on this connection or transaction.
    package var webhookEvents: WebhookEventRepository { WebhookEventRepository(sql: self) }
}
