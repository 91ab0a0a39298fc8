/// PIN locks that escalate: `pin_lock_level` counts the locks since the last correct PIN, each
/// longer than the one before; `pin_blocked` is the lock the last level sets, which only an
/// operator (or, later, a PIN reset) lifts.
enum Migration0014PinLockEscalation {
    static let migration = Migration(
        version: 14, name: "pin_lock_escalation",
        statements: [
            "ALTER TABLE users ADD COLUMN pin_lock_level BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN pin_blocked BIGINT NOT NULL DEFAULT 0",
        ])
}
