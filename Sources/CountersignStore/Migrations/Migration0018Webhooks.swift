/// Signed outbound webhooks. `webhook_endpoints` are the operator's receivers (the secret is kept to
/// sign with, so it is stored as given, like the other signing secrets); an endpoint is removed by
/// setting `removed_at`, so its delivery log stays readable. `webhook_events` is the outbox: one row
/// per event, written in the transaction of the money movement it reports, with the exact body that
/// is sent. `webhook_deliveries` is one row per event and subscribed endpoint: its state, the next
/// attempt, and the lease an instance holds while it sends (`lease_owner`, `lease_until`).
/// `resource_seq` orders the events of one resource, so a later one waits for the earlier.
/// `webhook_attempts` is the delivery log: one row per HTTP attempt.
package enum Migration0018Webhooks {
    static let migration = Migration(
        version: 18, name: "webhooks",
        statements: [
            """
            CREATE TABLE webhook_endpoints (
                id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                secret TEXT NOT NULL,
                event_types TEXT NOT NULL,
                enabled BIGINT NOT NULL DEFAULT 1,
                failing_since BIGINT,
                disabled_at BIGINT,
                created_by TEXT,
                created_at BIGINT NOT NULL,
                removed_at BIGINT
            )
            """,
            """
            CREATE TABLE webhook_events (
                id TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                resource_type TEXT NOT NULL,
                resource_id TEXT NOT NULL,
                resource_seq BIGINT NOT NULL,
                payload TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (resource_type, resource_id, resource_seq)
            )
            """,
            """
            CREATE TABLE webhook_deliveries (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL REFERENCES webhook_events(id),
                endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
                resource_key TEXT NOT NULL,
                resource_seq BIGINT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                lease_owner TEXT,
                lease_until BIGINT NOT NULL DEFAULT 0,
                last_status_code BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                finished_at BIGINT,
                UNIQUE (event_id, endpoint_id)
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
            "CREATE INDEX webhook_deliveries_resource ON webhook_deliveries (endpoint_id, resource_key, resource_seq)",
            """
            CREATE TABLE webhook_attempts (
                id TEXT PRIMARY KEY,
                delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
                endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
                attempted_at BIGINT NOT NULL,
                status_code BIGINT,
                error TEXT,
                latency_millis BIGINT NOT NULL
            )
            """,
            "CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, attempted_at)",
        ])
}
