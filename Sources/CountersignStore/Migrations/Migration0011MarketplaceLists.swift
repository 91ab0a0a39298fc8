/// The marketplace's lists (products for sale, a seller's products, the bids on a product, a
/// buyer's bids, a user's orders) read newest first by these.
enum Migration0011MarketplaceLists {
    static let migration = Migration(
        version: 11, name: "marketplace_lists",
        statements: [
            "CREATE INDEX products_created ON products (created_at, id)",
            "CREATE INDEX products_seller ON products (seller_id, created_at)",
            "CREATE INDEX bids_buyer ON bids (buyer_id, created_at)",
            "CREATE INDEX orders_seller ON orders (seller_id, created_at)",
        ])
}
