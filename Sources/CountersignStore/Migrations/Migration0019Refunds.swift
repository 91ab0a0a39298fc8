/// Money back: refunds of paid orders, the simulated provider's refunds, and operators' reversals
/// of transfers and fundings.
///
/// `orders.refunded` is what the order's refunds hold or returned (pending and succeeded, never
/// failed ones): the one guarded `UPDATE` that raises it is the lock that keeps refunds within the
/// order's proceeds under any number of parallel requests, on either engine.
enum Migration0019Refunds {
    static let migration = Migration(
        version: 19, name: "refunds",
        statements: [
            "ALTER TABLE orders ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0 CHECK (refunded >= 0)",
            // Where the amount was taken from (escrow before release, then payable and the seller's
            // debt), so a failure puts it back where it belongs.
            """
            CREATE TABLE order_refunds (
                id TEXT PRIMARY KEY,
                order_id TEXT NOT NULL REFERENCES orders(id),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                reason TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
                requested_by TEXT NOT NULL REFERENCES users(id),
                requested_as TEXT NOT NULL CHECK (requested_as IN ('seller', 'operator')),
                from_escrow BIGINT NOT NULL CHECK (from_escrow >= 0),
                from_payable BIGINT NOT NULL CHECK (from_payable >= 0),
                from_debt BIGINT NOT NULL CHECK (from_debt >= 0),
                provider_refund_id TEXT UNIQUE,
                failure_message TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                CHECK (from_escrow + from_payable + from_debt = amount)
            )
            """,
            "CREATE INDEX order_refunds_order ON order_refunds (order_id, created_at)",
            // The sweeper's queue.
            "CREATE INDEX order_refunds_status ON order_refunds (status, updated_at)",
            """
            CREATE TABLE sim_refunds (
                id TEXT PRIMARY KEY,
                idempotency_key TEXT NOT NULL UNIQUE,
                payment_intent_id TEXT NOT NULL REFERENCES sim_payment_intents(id),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
                failure_reason TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            // A reversal names its original (a transfer, or a funding's wallet transaction) and its
            // own ledger entry references it: linked both ways. UNIQUE: never reversed twice, however
            // many operators try at once.
            """
            CREATE TABLE reversals (
                id TEXT PRIMARY KEY,
                original_kind TEXT NOT NULL CHECK (original_kind IN ('transfer', 'funding')),
                original_id TEXT NOT NULL,
                operator_id TEXT NOT NULL REFERENCES users(id),
                reason TEXT NOT NULL,
                currency TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (original_kind, original_id)
            )
            """,
        ])
}
