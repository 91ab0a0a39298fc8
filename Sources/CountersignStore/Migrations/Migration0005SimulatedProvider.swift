/// The simulated payment provider's own state: saved cards and payment intents. Kept in the
/// database so that it survives restarts and several server processes share it.
enum Migration0005SimulatedProvider {
    static let migration = Migration(
        version: 5, name: "simulated_provider",
        statements: [
            // Never the card number: only what a real provider would show back, and the test outcome.
            """
            CREATE TABLE sim_cards (
                id TEXT PRIMARY KEY,
                customer_id TEXT NOT NULL,
                brand TEXT NOT NULL,
                last4 TEXT NOT NULL,
                exp_month BIGINT NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
                exp_year BIGINT NOT NULL,
                outcome TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sim_cards_customer ON sim_cards (customer_id, created_at)",
            """
            CREATE TABLE sim_payment_intents (
                id TEXT PRIMARY KEY,
                idempotency_key TEXT NOT NULL UNIQUE,
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                method TEXT NOT NULL,
                payment_method_id TEXT,
                customer_id TEXT,
                order_id TEXT NOT NULL,
                return_url TEXT,
                status TEXT NOT NULL CHECK (status IN ('requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled')),
                error_code TEXT,
                error_message TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
