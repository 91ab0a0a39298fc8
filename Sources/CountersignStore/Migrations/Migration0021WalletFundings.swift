/// Money added to a wallet through the payment provider: one row per funding, the provider's intent
/// and its outcome. The wallet transaction with the same id is what history shows; the ledger entry
/// (provider clearing → wallet) is posted in the transaction that moves the row to `succeeded`.
enum Migration0021WalletFundings {
    static let migration = Migration(
        version: 21, name: "wallet_fundings",
        statements: [
            """
            CREATE TABLE wallet_fundings (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                method TEXT NOT NULL CHECK (method IN ('card', 'ideal', 'bancontact')),
                payment_method_id TEXT,
                return_url TEXT,
                status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
                payment_intent_id TEXT,
                error_code TEXT,
                error_message TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX wallet_fundings_user ON wallet_fundings (user_id, created_at)",
            // The sweeper's queue.
            "CREATE INDEX wallet_fundings_status ON wallet_fundings (status, updated_at)",
        ])
}
