/// The expiry sweep's queue: bids by status and age (see `MarketplaceService.expireStale`).
enum Migration0007BidExpiry {
    static let migration = Migration(
        version: 7, name: "bid_expiry",
        statements: [
            "CREATE INDEX bids_expiry ON bids (status, updated_at)"
        ])
}
