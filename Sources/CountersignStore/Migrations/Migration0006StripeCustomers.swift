/// Which Stripe customer (`cus_…`) stands for which of our customers (user ids; opaque to the
/// provider, like the simulator's `sim_cards.customer_id`). Stripe chooses customer ids, so
/// the mapping is kept; test and live mode are separate Stripe worlds, so each has its own row.
enum Migration0006StripeCustomers {
    static let migration = Migration(
        version: 6, name: "stripe_customers",
        statements: [
            """
            CREATE TABLE stripe_customers (
                user_id TEXT NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
                customer_id TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, mode)
            )
            """
        ])
}
