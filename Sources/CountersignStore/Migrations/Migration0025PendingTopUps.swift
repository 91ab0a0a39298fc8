/// The pending top-up sweeper's index: the sweeper (at startup and every minute) looks for top-ups
/// still pending, which are a handful at any time among every top-up ever made. Without it each
/// sweep read the whole table: 1.5 s on a store with three million top-ups.
enum Migration0025PendingTopUps {
    static let migration = Migration(
        version: 25, name: "pending_topups",
        statements: [
            "CREATE INDEX wallet_transactions_pending ON wallet_transactions (created_at) WHERE status = 'pending'"
        ])
}
