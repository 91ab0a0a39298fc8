/// Sign-in with a passkey: its challenges belong to no user yet (the assertion says who signs in),
/// so they live apart from `challenges`, whose rows name their user.
enum Migration0010PasskeySignIn {
    static let migration = Migration(
        version: 10, name: "passkey_sign_in",
        statements: [
            """
            CREATE TABLE sign_in_challenges (
                challenge TEXT PRIMARY KEY,
                user_verification TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                consumed_at BIGINT
            )
            """,
            "CREATE INDEX sign_in_challenges_expiry ON sign_in_challenges (expires_at)",
        ])
}
