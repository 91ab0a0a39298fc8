import CountersignStore

/// The outbox's events (`webhook_events`) and a delivery of each to every subscribed endpoint
/// (`webhook_deliveries`).
package struct WebhookEventRepository {
    let sql: any SQLExecutor

    /// Records `event` as the next of its resource's events (`resource_seq`), and a pending
    /// delivery of it to each of `endpoints`, due at once.
    func insert(_ event: WebhookOutbox.Event, endpoints: [String]) async throws {
        let seq =
            try await sql.first(
                "SELECT \(Self.nextSeq("$1", "$2")) AS next", [.text(event.resourceType), .text(event.resourceId)]
            )?.int("next") ?? 1
        try await sql.execute(
            """
            INSERT INTO webhook_events (id, type, resource_type, resource_id, resource_seq, payload, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(event.id), .text(event.type), .text(event.resourceType), .text(event.resourceId),
                .integer(seq), .text(event.payload), .integer(event.now),
            ])
        for endpointId in endpoints {
            try await sql.execute(
                """
                INSERT INTO webhook_deliveries (id, event_id, endpoint_id, resource_key, resource_seq, status,
                    next_attempt_at, created_at)
                VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6)
                """,
                [
                    .text(Identifier.make("whd")), .text(event.id), .text(endpointId),
                    .text(Self.resourceKey(event)), .integer(seq), .integer(event.now),
                ])
        }
    }

    /// `insert` as parts of one PostgreSQL statement, written only if the part `after` returned a
    /// row: `subscribed`, the live endpoints subscribed to the event's type (as
    /// `WebhookEndpointRepository.subscribed`), to put before that part, which should also hold
    /// only if `fits`: at most `maxEndpoints` of them, the deliveries' ids being made here; then
    /// `recorded`, the event if any endpoint is subscribed, and `delivered`, one delivery for each.
    static func recordingParts(
        _ event: WebhookOutbox.Event, maxEndpoints: Int, after: String, binds: inout [SQLValue]
    ) -> (subscribed: String, fits: String, recorded: String) {
        func bind(_ value: SQLValue) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        let subscribed = """
            subscribed AS (
                \(WebhookEndpointRepository.subscribedSelect(to: event.type, binds: &binds))
            )
            """
        let (id, type, resourceType, resourceId) = (
            bind(.text(event.id)), bind(.text(event.type)), bind(.text(event.resourceType)),
            bind(.text(event.resourceId))
        )
        let (payload, now, key) = (
            bind(.text(event.payload)), bind(.integer(event.now)), bind(.text(resourceKey(event)))
        )
        let ids = bind(.text((0..<maxEndpoints).map { _ in Identifier.make("whd") }.joined(separator: ",")))
        let recorded = """
            recorded AS (
                INSERT INTO webhook_events (id, type, resource_type, resource_id, resource_seq, payload, created_at)
                SELECT \(id), \(type), \(resourceType), \(resourceId), \(nextSeq(resourceType, resourceId)), \(payload), \(now)
                WHERE EXISTS (SELECT 1 FROM \(after)) AND EXISTS (SELECT 1 FROM subscribed)
                RETURNING id, resource_seq
            ),
            delivered AS (
                INSERT INTO webhook_deliveries (id, event_id, endpoint_id, resource_key, resource_seq, status,
                    next_attempt_at, created_at)
                SELECT split_part(\(ids), ',', CAST(s.n AS INTEGER)), r.id, s.id, \(key), r.resource_seq, 'pending', \(now), \(now)
                FROM recorded r CROSS JOIN subscribed s
                RETURNING 1
            )
            """
        return (subscribed, "(SELECT COUNT(*) FROM subscribed) <= \(maxEndpoints)", recorded)
    }

    /// The next number among the events of the resource whose type and id are at `type` and `id`.
    private static func nextSeq(_ type: String, _ id: String) -> String {
        """
        (SELECT CAST(COALESCE(MAX(resource_seq), 0) + 1 AS BIGINT) FROM webhook_events
            WHERE resource_type = \(type) AND resource_id = \(id))
        """
    }

    private static func resourceKey(_ event: WebhookOutbox.Event) -> String {
        event.resourceType + ":" + event.resourceId
    }
}

extension SQLExecutor {
    /// `WebhookEventRepository` on this connection or transaction.
    package var webhookEvents: WebhookEventRepository { WebhookEventRepository(sql: self) }
}
