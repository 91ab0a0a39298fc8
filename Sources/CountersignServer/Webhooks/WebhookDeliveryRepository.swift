import CountersignStore

/// `webhook_deliveries` and `webhook_attempts`, in SQL both engines share.
package struct WebhookDeliveryRepository: Sendable {
    let sql: any SQLExecutor

    /// Leases up to `limit` due deliveries to `owner` until `leaseUntil`. Due: pending, its next
    /// attempt reached, no live lease (one held by an instance no longer in `server_instances`, retired
    /// at a restart after a crash, is free at once), its endpoint enabled, and no earlier event of the same
    /// resource still pending for that endpoint (events of one resource arrive in order). On
    /// PostgreSQL the rows are locked `FOR UPDATE OF d SKIP LOCKED` while the lease is written, so
    /// two instances never lease the same delivery; SQLite has one writer.
    func claim(
        now: Int64, owner: String, leaseUntil: Int64, limit: Int, engine: DatabaseEngine
    ) async throws -> [WebhookDelivery] {
        let lock = engine == .postgres ? " FOR UPDATE OF d SKIP LOCKED" : ""
        let ids = try await sql.query(
            """
            SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.status = 'pending' AND d.next_attempt_at <= $1
                AND (d.lease_until <= $1
                    OR NOT EXISTS (SELECT 1 FROM server_instances s WHERE s.id = d.lease_owner))
                AND e.enabled = 1 AND e.removed_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id
                    AND p.resource_key = d.resource_key AND p.resource_seq < d.resource_seq AND p.status = 'pending')
            ORDER BY d.next_attempt_at, d.created_at, d.id LIMIT $2\(lock)
            """, [.integer(now), .integer(Int64(limit))]
        ).map { try $0.string("id") }
        var claimed: [WebhookDelivery] = []
        for id in ids {
            guard
                let row = try await sql.first(
                    """
                    UPDATE webhook_deliveries SET lease_owner = $2, lease_until = $3
                    WHERE id = $1 AND status = 'pending' RETURNING id
                    """, [.text(id), .text(owner), .integer(leaseUntil)]),
                let delivery = try await find(id: try row.string("id"))
            else { continue }
            claimed.append(delivery)
        }
        return claimed
    }

    func find(id: String) async throws -> WebhookDelivery? {
        try await sql.first(
            """
            SELECT d.id, d.event_id, d.endpoint_id, d.attempts, e.url, e.secret, ev.payload, ev.created_at
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                JOIN webhook_events ev ON ev.id = d.event_id
            WHERE d.id = $1
            """, [.text(id)]
        ).map { row in
            WebhookDelivery(
                id: try row.string("id"), eventId: try row.string("event_id"),
                endpointId: try row.string("endpoint_id"), url: try row.string("url"),
                secret: try row.string("secret"), payload: try row.string("payload"),
                attempts: try row.int("attempts"), eventCreatedAt: try row.int("created_at"))
        }
    }

    /// Records an attempt and the delivery's next state (`delivered`, `failed` for good, or
    /// `pending` until `nextAttemptAt`), if `owner` still holds the lease; false if it lost it.
    func finish(
        _ delivery: WebhookDelivery, owner: String, status: String, nextAttemptAt: Int64, attempt: WebhookAttempt
    ) async throws -> Bool {
        let updated = try await sql.query(
            """
            UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, next_attempt_at = $4,
                lease_owner = NULL, lease_until = 0, last_status_code = $5, last_error = $6,
                finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE $7 END
            WHERE id = $1 AND lease_owner = $2 AND status = 'pending' RETURNING id
            """,
            [
                .text(delivery.id), .text(owner), .text(status), .integer(nextAttemptAt),
                attempt.statusCode.map { .integer($0) } ?? .null, .text(attempt.error), .integer(attempt.attemptedAt),
            ])
        guard !updated.isEmpty else { return false }
        try await sql.execute(
            """
            INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempted_at, status_code, error, latency_millis)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(attempt.id), .text(delivery.id), .text(delivery.endpointId), .integer(attempt.attemptedAt),
                attempt.statusCode.map { .integer($0) } ?? .null, .text(attempt.error),
                .integer(attempt.latencyMillis),
            ])
        return true
    }

    /// The latest attempts at `endpointId`, newest first (at most `limit`).
    func attempts(endpointId: String, limit: Int) async throws -> [WebhookAttempt] {
        try await sql.query(
            """
            SELECT a.id, a.delivery_id, d.event_id, ev.type, a.attempted_at, a.status_code, a.error, a.latency_millis
            FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
                JOIN webhook_events ev ON ev.id = d.event_id
            WHERE a.endpoint_id = $1 ORDER BY a.attempted_at DESC, a.id DESC LIMIT $2
            """, [.text(endpointId), .integer(Int64(limit))]
        ).map { row in
            WebhookAttempt(
                id: try row.string("id"), deliveryId: try row.string("delivery_id"),
                eventId: try row.string("event_id"), eventType: try row.string("type"),
                attemptedAt: try row.int("attempted_at"), statusCode: try row.optionalInt("status_code"),
                error: try row.optionalString("error"), latencyMillis: try row.int("latency_millis"))
        }
    }

    /// Sends the event to the endpoint again, as soon as a worker is free: its delivery back to
    /// `pending`, attempted now (a pending one just sooner). False if the endpoint never had that event.
    func redeliver(eventId: String, endpointId: String, now: Int64) async throws -> Bool {
        !(try await sql.query(
            """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, finished_at = NULL
            WHERE event_id = $1 AND endpoint_id = $2 RETURNING id
            """, [.text(eventId), .text(endpointId), .integer(now)])).isEmpty
    }

    /// How many deliveries wait (pending), for the backlog metric.
    func backlog() async throws -> Int64 {
        try await sql.first("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")?.int("n") ?? 0
    }
}

extension SQLExecutor {
    /// `WebhookDeliveryRepository` on this connection or transaction.
    package var webhookDeliveries: WebhookDeliveryRepository { WebhookDeliveryRepository(sql: self) }
}
