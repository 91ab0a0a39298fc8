/// Marketplace orders paid from the buyer's wallet: `orders.payment_method` gains `wallet`.
///
/// PostgreSQL changes the CHECK in place. SQLite cannot alter a CHECK, so it rebuilds the table:
/// copy, drop, create, copy back, indexes again. `order_refunds` references `orders`, and the
/// drop's implicit delete would orphan its rows; with the foreign keys deferred to the commit, the
/// copy back re-parents every row before the check runs, and nothing else changes.
enum Migration0022WalletOrderPayments {
    static let migration = Migration(
        version: 22, name: "wallet_order_payments",
        statements: [
            "PRAGMA defer_foreign_keys = ON",
            "CREATE TABLE orders_before_wallet AS SELECT * FROM orders",
            "DROP TABLE orders",
            """
            CREATE TABLE orders (
                id TEXT PRIMARY KEY,
                bid_id TEXT NOT NULL UNIQUE REFERENCES bids(id),
                product_id TEXT NOT NULL REFERENCES products(id),
                buyer_id TEXT NOT NULL REFERENCES users(id),
                seller_id TEXT NOT NULL REFERENCES users(id),
                status TEXT NOT NULL CHECK (status IN ('NEW', 'PAYMENT_PENDING', 'PAID', 'CANCELED', 'EXPIRED', 'SHIPPED', 'COMPLETED')),
                delivery TEXT NOT NULL,
                address_id TEXT REFERENCES addresses(id),
                payment_method TEXT NOT NULL CHECK (payment_method IN ('card', 'ideal', 'bancontact', 'wallet')),
                subtotal BIGINT NOT NULL CHECK (subtotal > 0),
                shipping BIGINT NOT NULL CHECK (shipping >= 0),
                payment_fee BIGINT NOT NULL CHECK (payment_fee >= 0),
                total BIGINT NOT NULL CHECK (total = subtotal + shipping + payment_fee),
                currency TEXT NOT NULL,
                totals TEXT NOT NULL,
                payment_attempt BIGINT NOT NULL DEFAULT 0,
                payment_method_id TEXT,
                return_url TEXT,
                payment_intent_id TEXT,
                payment_error_code TEXT,
                payment_error_message TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                refunded BIGINT NOT NULL DEFAULT 0 CHECK (refunded >= 0)
            )
            """,
            """
            INSERT INTO orders (id, bid_id, product_id, buyer_id, seller_id, status, delivery, address_id,
                payment_method, subtotal, shipping, payment_fee, total, currency, totals, payment_attempt,
                payment_method_id, return_url, payment_intent_id, payment_error_code, payment_error_message,
                created_at, updated_at, refunded)
            SELECT id, bid_id, product_id, buyer_id, seller_id, status, delivery, address_id,
                payment_method, subtotal, shipping, payment_fee, total, currency, totals, payment_attempt,
                payment_method_id, return_url, payment_intent_id, payment_error_code, payment_error_message,
                created_at, updated_at, refunded
            FROM orders_before_wallet
            """,
            "DROP TABLE orders_before_wallet",
            "CREATE INDEX orders_buyer ON orders (buyer_id, created_at)",
            "CREATE INDEX orders_status ON orders (status, updated_at)",
            "CREATE INDEX orders_seller ON orders (seller_id, created_at)",
        ],
        postgresStatements: [
            "ALTER TABLE orders DROP CONSTRAINT orders_payment_method_check",
            """
            ALTER TABLE orders ADD CONSTRAINT orders_payment_method_check
                CHECK (payment_method IN ('card', 'ideal', 'bancontact', 'wallet'))
            """,
        ])
}
