/// Transfers as live documents: the current state of each, and every version of it in order.
enum Migration0002Transfers {
    static let migration = Migration(
        version: 2, name: "transfers",
        statements: [
            """
            CREATE TABLE transfers (
                id TEXT PRIMARY KEY,
                payer_id TEXT NOT NULL REFERENCES users(id),
                payee_id TEXT REFERENCES users(id),
                payee_phone TEXT NOT NULL,
                payee_name TEXT,
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                note TEXT,
                status TEXT NOT NULL CHECK (status IN (
                    'PENDING_PAYEE_LOOKUP', 'PENDING_QUOTE', 'AUTHORIZATION_REQUIRED', 'AUTHORIZED',
                    'SUCCESS', 'FAILED', 'DECLINED', 'EXPIRED', 'CANCELLED'
                )),
                quote TEXT,
                total_fees BIGINT CHECK (total_fees >= 0),
                quote_expires_at BIGINT,
                challenge TEXT,
                error_code TEXT,
                error_message TEXT,
                authorized_by TEXT,
                sequence BIGINT NOT NULL,
                idempotency_key TEXT NOT NULL,
                request_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (payer_id, idempotency_key)
            )
            """,
            // The background worker's queue: transfers the server must move on, oldest first.
            "CREATE INDEX transfers_work ON transfers (status, updated_at)",
            """
            CREATE TABLE transfer_events (
                transfer_id TEXT NOT NULL REFERENCES transfers(id),
                sequence BIGINT NOT NULL,
                status TEXT NOT NULL,
                document TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (transfer_id, sequence)
            )
            """,
        ])
}
