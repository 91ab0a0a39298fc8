/// Money within limits. `pin_allowances`: what PIN-only payments have spent, per user and currency,
/// since the user's last payment with two factors (a passkey with user verification), which empties
/// it. `user_tiers`: the limits tier an operator assigned (none: the default tier). `user_limits`: a
/// limit a user set below their tier's, and a raise waiting for its delay (`pending_amount` from
/// `pending_from`).
enum Migration0020Limits {
    static let migration = Migration(
        version: 20, name: "limits",
        statements: [
            """
            CREATE TABLE pin_allowances (
                user_id TEXT NOT NULL, currency TEXT NOT NULL,
                payments BIGINT NOT NULL DEFAULT 0 CHECK (payments >= 0),
                total BIGINT NOT NULL DEFAULT 0 CHECK (total >= 0),
                PRIMARY KEY (user_id, currency))
            """,
            """
            CREATE TABLE user_tiers (
                user_id TEXT PRIMARY KEY, tier TEXT NOT NULL, assigned_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE user_limits (
                user_id TEXT NOT NULL, currency TEXT NOT NULL, kind TEXT NOT NULL,
                amount BIGINT NOT NULL CHECK (amount >= 0),
                pending_amount BIGINT CHECK (pending_amount >= 0), pending_from BIGINT,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, currency, kind))
            """,
        ])
}
