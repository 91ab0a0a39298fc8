/// The marketplace: merchants, shipping addresses, products and bids.
enum Migration0003Marketplace {
    static let migration = Migration(
        version: 3, name: "marketplace",
        statements: [
            "ALTER TABLE users ADD COLUMN is_merchant BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE addresses (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                name TEXT NOT NULL,
                line1 TEXT NOT NULL,
                city TEXT NOT NULL,
                postal_code TEXT NOT NULL,
                country TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX addresses_user ON addresses (user_id, created_at)",
            """
            CREATE TABLE products (
                id TEXT PRIMARY KEY,
                seller_id TEXT NOT NULL REFERENCES users(id),
                title TEXT NOT NULL,
                asking_price BIGINT NOT NULL CHECK (asking_price > 0),
                currency TEXT NOT NULL,
                ship_from_country TEXT NOT NULL,
                pickup BIGINT NOT NULL,
                shipping_methods TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE bids (
                id TEXT PRIMARY KEY,
                product_id TEXT NOT NULL REFERENCES products(id),
                buyer_id TEXT NOT NULL REFERENCES users(id),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('NEW', 'ACCEPTED', 'CANCELED', 'EXPIRED', 'COMPLETED')),
                buy_now BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX bids_product ON bids (product_id, status)",
            // A product has at most one bid that holds it: accepted (awaiting payment) or completed (sold).
            "CREATE UNIQUE INDEX bids_one_holding ON bids (product_id) WHERE status IN ('ACCEPTED', 'COMPLETED')",
        ])
}
