/// Proven phone numbers and bound devices.
///
/// - `users.phone_verified_at`: when a code proved the number; NULL for accounts opened before
///   numbers were proven (they verify at their next login and receive no transfers until then).
///   `users.pin_cooling_until`: after a PIN reset by code alone, PIN payments and step-ups wait.
/// - `sessions.proof` says how a session was opened (`pin` for sessions from before, `device`: PIN
///   on a remembered device, `code`: PIN and a code on a new one, `signup`, `passkey`, `reset`);
///   `device_id` the remembered device; `cooling_until` the new-device limit it inherits.
/// - `credentials.cooling_until`/`bound_by`: a key bound with the PIN and a code pays little at first.
/// - `phone_verifications`: one-time codes, stored only as a keyed hash, with their tries.
/// - `sms_budgets`: codes sent per country calling code per hour, shared by every process.
/// - `known_devices`: devices that held a session of a user (by the SHA-256 of their token) and may
///   sign in with the PIN alone.
/// - `account_events`: what happened to an account's security, for its holder and operators.
/// - `simulated_sms`: the SMS simulator's outbox, read at `GET /sim/sms` in test mode.
enum Migration0015PhoneAndDevices {
    static let migration = Migration(
        version: 15, name: "phone_and_devices",
        statements: [
            "ALTER TABLE users ADD COLUMN phone_verified_at BIGINT",
            "ALTER TABLE users ADD COLUMN pin_cooling_until BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE sessions ADD COLUMN proof TEXT NOT NULL DEFAULT 'pin'",
            "ALTER TABLE sessions ADD COLUMN device_id TEXT",
            "ALTER TABLE sessions ADD COLUMN cooling_until BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE credentials ADD COLUMN cooling_until BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE credentials ADD COLUMN bound_by TEXT NOT NULL DEFAULT 'pin'",
            """
            CREATE TABLE phone_verifications (
                id TEXT PRIMARY KEY,
                phone TEXT NOT NULL,
                purpose TEXT NOT NULL,
                user_id TEXT REFERENCES users(id),
                code_hash TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                consumed_at BIGINT
            )
            """,
            "CREATE INDEX phone_verifications_expiry ON phone_verifications (expires_at)",
            """
            CREATE TABLE sms_budgets (
                calling_code TEXT NOT NULL,
                hour BIGINT NOT NULL,
                sent BIGINT NOT NULL,
                PRIMARY KEY (calling_code, hour)
            )
            """,
            """
            CREATE TABLE known_devices (
                id TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL REFERENCES users(id),
                label TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL,
                cooling_until BIGINT NOT NULL DEFAULT 0,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX known_devices_user ON known_devices (user_id)",
            """
            CREATE TABLE account_events (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                kind TEXT NOT NULL,
                detail TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX account_events_user ON account_events (user_id, created_at)",
            """
            CREATE TABLE simulated_sms (
                id TEXT PRIMARY KEY,
                to_phone TEXT NOT NULL,
                body TEXT NOT NULL,
                sent_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX simulated_sms_to ON simulated_sms (to_phone, sent_at)",
        ])
}
