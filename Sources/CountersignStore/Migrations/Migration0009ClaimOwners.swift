/// Each server process keeps a lease in `server_instances` while it runs, and an idempotency claim
/// records the process that made it, so a retry takes over a dead process's claim at once instead
/// of waiting out the five-minute abandonment rule (which stays for claims made before this).
enum Migration0009ClaimOwners {
    static let migration = Migration(
        version: 9, name: "claim_owners",
        statements: [
            """
            CREATE TABLE server_instances (
                id TEXT PRIMARY KEY,
                pid BIGINT NOT NULL,
                pid_namespace TEXT,
                started_at BIGINT NOT NULL,
                lease_expires_at BIGINT NOT NULL
            )
            """,
            "ALTER TABLE idempotency_keys ADD COLUMN owner_instance TEXT",
        ])
}
