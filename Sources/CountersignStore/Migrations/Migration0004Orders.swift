/// Orders: one per accepted bid, with the totals the server computed for the buyer's choices.
enum Migration0004Orders {
    static let migration = Migration(
        version: 4, name: "orders",
        statements: [
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
                payment_method TEXT NOT NULL CHECK (payment_method IN ('card', 'ideal', 'bancontact')),
                subtotal BIGINT NOT NULL CHECK (subtotal > 0),
                shipping BIGINT NOT NULL CHECK (shipping >= 0),
                payment_fee BIGINT NOT NULL CHECK (payment_fee >= 0),
                total BIGINT NOT NULL CHECK (total = subtotal + shipping + payment_fee),
                currency TEXT NOT NULL,
                -- The whole breakdown as computed, lines included (JSON); the columns above are its figures.
                totals TEXT NOT NULL,
                -- The payment: which attempt (part of the provider idempotency key), the provider's
                -- intent, and why the last attempt failed.
                payment_attempt BIGINT NOT NULL DEFAULT 0,
                payment_method_id TEXT,
                return_url TEXT,
                payment_intent_id TEXT,
                payment_error_code TEXT,
                payment_error_message TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX orders_buyer ON orders (buyer_id, created_at)",
            // The sweeper's queue.
            "CREATE INDEX orders_status ON orders (status, updated_at)",
        ])
}
