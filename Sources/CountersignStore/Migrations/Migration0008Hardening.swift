/// One count of PIN failures per account (login, PIN payments and step-up share it), sessions that
/// expire when idle, and device keys their owner revoked. (`failed_logins` and `login_locked_until`
/// stay, unused: released migrations are never edited.)
enum Migration0008Hardening {
    static let migration = Migration(
        version: 8, name: "hardening",
        statements: [
            "ALTER TABLE users ADD COLUMN failed_pin_attempts BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN pin_locked_until BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN pin_checks_in_flight BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN pin_checks_started_at BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0",
            "UPDATE sessions SET last_seen_at = created_at",
            "CREATE INDEX sessions_user ON sessions (user_id)",
            "ALTER TABLE credentials ADD COLUMN revoked_at BIGINT",
            // Top-up request hashes stored before this version covered the PIN, and fall to 10,000
            // guesses: erased. A retry with such an old key now answers 422 idempotency_key_reused.
            "UPDATE idempotency_keys SET request_hash = 'erased'",
        ])
}
