/// What a user paid out of a wallet, read from one index: every payment reads the spending limits'
/// two windows (`LimitsRepository.paidOut`), which through `wallet_transactions_user` looked up each
/// of the user's rows in the window in the table for its currency, type, status and amount. This
/// index holds those columns too, so the sum reads only the index (SQLite's covering index,
/// PostgreSQL's index-only scan) and its cost no longer grows with a row per payment.
enum Migration0024PaidOutIndex {
    static let migration = Migration(
        version: 24, name: "paid_out_index",
        statements: [
            """
            CREATE INDEX wallet_transactions_paid_out
            ON wallet_transactions (user_id, currency, created_at, type, status, amount)
            """
        ])
}
