import CountersignStore

/// Users and their failure counters.
///
/// `UserRepository` in SQL shared by SQLite and PostgreSQL.
package struct UserRepository: Sendable {
    let sql: any SQLExecutor

    /// Inserts a user whose number a code proved at `now`; throws `APIError` `phone_taken` if the
    /// phone is registered already.
    package func create(
        id: String, phone: String, name: String, pinHash: String, userHandle: String, now: Int64
    ) async throws -> User {
        let rows = try await sql.query(
            """
            INSERT INTO users (id, phone, name, pin_hash, user_handle, created_at, phone_verified_at)
            VALUES ($1, $2, $3, $4, $5, $6, $6)
            ON CONFLICT (phone) DO NOTHING RETURNING *
            """,
            [.text(id), .text(phone), .text(name), .text(pinHash), .text(userHandle), .integer(now)]
        )
        guard let row = rows.first else { throw APIError(.phoneTaken, "That phone number is already registered.") }
        return try Self.user(from: row)
    }

    /// Records that a code proved the user's number.
    package func markVerified(userId: String, now: Int64) async throws {
        try await sql.execute(
            "UPDATE users SET phone_verified_at = $2 WHERE id = $1 AND phone_verified_at IS NULL",
            [.text(userId), .integer(now)])
    }

    /// Takes the number from an account that never proved it (someone else just did): the account
    /// keeps its money but can no longer be reached by the number. Returns its id, if there was one.
    package func releaseUnverified(phone: String, now: Int64) async throws -> String? {
        // The number becomes a tombstone no phone number can equal (`released:` and the id).
        try await sql.first(
            "UPDATE users SET phone = 'released:' || id WHERE phone = $1 AND phone_verified_at IS NULL RETURNING id",
            [.text(phone)]
        )?.string("id")
    }

    /// Sets a new PIN and clears every PIN count, lock and block; PIN payments and step-ups wait
    /// until `coolingUntil` (0: at once).
    package func resetPin(userId: String, pinHash: String, coolingUntil: Int64) async throws {
        try await sql.execute(
            """
            UPDATE users SET pin_hash = $2, pin_cooling_until = $3, failed_pin_attempts = 0, pin_locked_until = 0,
                pin_lock_level = 0, pin_blocked = 0, failed_payment_auths = 0, payment_locked_until = 0
            WHERE id = $1
            """,
            [.text(userId), .text(pinHash), .integer(coolingUntil)])
    }

    /// Moves the user to another, proven number; false if it is taken meanwhile.
    package func changePhone(userId: String, to phone: String, now: Int64) async throws
        -> Bool
    {
        try await sql.first(
            """
            UPDATE users SET phone = $2, phone_verified_at = $3 WHERE id = $1
                AND NOT EXISTS (SELECT 1 FROM users other WHERE other.phone = $2)
            RETURNING id
            """,
            [.text(userId), .text(phone), .integer(now)]) != nil
    }

    package func find(id: String) async throws -> User? {
        try await sql.first("SELECT * FROM users WHERE id = $1", [.text(id)]).map(Self.user(from:))
    }

    package func find(phone: String) async throws -> User? {
        try await sql.first("SELECT * FROM users WHERE phone = $1", [.text(phone)]).map(Self.user(from:))
    }

    /// Counts one more failed payment authorization; when it reaches `threshold` the counter
    /// resets and payment authorization locks until `lockUntil`. Returns the lock end if it locked.
    package func recordPaymentFailure(userId: String, threshold: Int64, lockUntil: Int64)
        async throws -> Int64?
    {
        try await recordFailure(
            counter: "failed_payment_auths", lock: "payment_locked_until", userId: userId, threshold: threshold,
            lockUntil: lockUntil)
    }

    package func resetPaymentFailures(userId: String) async throws {
        try await sql.execute(
            "UPDATE users SET failed_payment_auths = 0 WHERE id = $1 AND failed_payment_auths <> 0", [.text(userId)])
    }

    /// Counts one more PIN check before it is judged, in one statement so concurrent checks cannot
    /// overtake the count: refused while the PIN is locked, or while `threshold` checks are counted
    /// already (failed, or still being judged since `staleBefore`). A lapsed lock starts a new count;
    /// a blocked PIN is never reserved.
    package func reservePinAttempt(
        userId: String, threshold: Int64, now: Int64, staleBefore: Int64
    ) async throws -> PinReservation {
        // SET and WHERE read the row as it was. A lapsed lock starts a new count; checks begun
        // before `staleBefore` belonged to a process that died (or a task that was torn down)
        // before its verdict, and no longer count.
        let failures = "CASE WHEN pin_locked_until <> 0 THEN 0 ELSE failed_pin_attempts END"
        let inFlight = "CASE WHEN pin_checks_started_at < $4 THEN 0 ELSE pin_checks_in_flight END"
        let reserved = try await sql.first(
            """
            UPDATE users SET
                failed_pin_attempts = \(failures), pin_locked_until = 0,
                pin_checks_in_flight = \(inFlight) + 1, pin_checks_started_at = $3
            WHERE id = $1 AND pin_blocked = 0 AND pin_locked_until <= $3 AND \(failures) + \(inFlight) < $2
            RETURNING pin_checks_in_flight
            """,
            [.text(userId), .integer(threshold), .integer(now), .integer(staleBefore)]
        )
        if reserved != nil { return .reserved }
        let lock = try await pinLock(userId: userId)
        if lock.blocked { return .blocked }
        return lock.lockedUntil > now ? .locked(until: lock.lockedUntil) : .busy
    }

    /// Until when the user's PIN is locked (0: never locked), and whether it is blocked until reset.
    package func pinLock(userId: String) async throws -> (lockedUntil: Int64, blocked: Bool) {
        let row = try await sql.first("SELECT pin_locked_until, pin_blocked FROM users WHERE id = $1", [.text(userId)])
        return (try row?.int("pin_locked_until") ?? 0, try row?.int("pin_blocked") ?? 0 != 0)
    }

    /// A reserved check's verdict. A correct PIN clears the count and the lock level, unless a lock
    /// was set meanwhile (a lock once set ends only by its expiry or an operator); a wrong one adds to
    /// the count and, at `threshold` failures, locks the PIN until `schedule`'s time for the next
    /// level, or blocks it past the last.
    package func recordPinVerdict(
        userId: String, correct: Bool, threshold: Int64, now: Int64, schedule: PinLockSchedule
    ) async throws -> PinVerdictRecord {
        let remaining = "CASE WHEN pin_checks_in_flight > 0 THEN pin_checks_in_flight - 1 ELSE 0 END"
        if correct {
            let cleared = try await sql.first(
                """
                UPDATE users SET failed_pin_attempts = 0, pin_lock_level = 0, pin_locked_until = 0,
                    pin_checks_in_flight = \(remaining)
                WHERE id = $1 AND pin_blocked = 0 AND pin_locked_until <= $2 RETURNING id
                """,
                [.text(userId), .integer(now)]
            )
            if cleared != nil { return .cleared }
            // Locked by other verdicts since this check was reserved: the lock stands.
            let row = try await sql.first(
                "UPDATE users SET pin_checks_in_flight = \(remaining) WHERE id = $1 RETURNING pin_locked_until, pin_blocked",
                [.text(userId)])
            return try Self.lockRecord(row) ?? .cleared
        }
        // SET reads the row as it was: this failure locks when it reaches the threshold and no lock
        // is set yet; the lock's length follows the level, and the last level blocks.
        let locks = "failed_pin_attempts + 1 >= $2 AND pin_locked_until = 0 AND pin_blocked = 0"
        let row = try await sql.first(
            """
            UPDATE users SET
                failed_pin_attempts = failed_pin_attempts + 1, pin_checks_in_flight = \(remaining),
                pin_lock_level = CASE WHEN \(locks) THEN pin_lock_level + 1 ELSE pin_lock_level END,
                pin_blocked = CASE WHEN \(locks) AND pin_lock_level + 1 >= $6 THEN 1 ELSE pin_blocked END,
                pin_locked_until = CASE WHEN \(locks)
                    THEN CASE WHEN pin_lock_level = 0 THEN $3 WHEN pin_lock_level = 1 THEN $4 ELSE $5 END
                    ELSE pin_locked_until END
            WHERE id = $1 RETURNING pin_locked_until, pin_blocked
            """,
            [
                .text(userId), .integer(threshold), .integer(schedule.until(level: 1, now: now)),
                .integer(schedule.until(level: 2, now: now)), .integer(schedule.until(level: 3, now: now)),
                .integer(PinLockSchedule.blockingLevel),
            ]
        )
        return try Self.lockRecord(row) ?? .counted
    }

    /// A reserved check abandoned unjudged (the hashing pool refused it): it stops counting.
    package func releasePinAttempt(userId: String) async throws {
        try await sql.execute(
            """
            UPDATE users SET pin_checks_in_flight = CASE WHEN pin_checks_in_flight > 0 THEN pin_checks_in_flight - 1 ELSE 0 END
            WHERE id = $1
            """, [.text(userId)])
    }

    /// `.blocked` or `.locked` as `row` (`pin_locked_until`, `pin_blocked`) says; nil when neither.
    private static func lockRecord(_ row: SQLRow?) throws -> PinVerdictRecord? {
        guard let row else { return nil }
        if try row.int("pin_blocked") != 0 { return .blocked }
        let until = try row.int("pin_locked_until")
        return until == 0 ? nil : .locked(until: until)
    }

    /// One statement, so concurrent failures cannot both read the old count (no lost increments).
    private func recordFailure(
        counter: String, lock: String, userId: String, threshold: Int64, lockUntil: Int64
    ) async throws -> Int64? {
        let row = try await sql.first(
            """
            UPDATE users SET
                \(lock) = CASE WHEN \(counter) + 1 >= $2 THEN $3 ELSE \(lock) END,
                \(counter) = CASE WHEN \(counter) + 1 >= $2 THEN 0 ELSE \(counter) + 1 END
            WHERE id = $1 RETURNING \(counter) AS failures, \(lock) AS locked_until
            """,
            [.text(userId), .integer(threshold), .integer(lockUntil)]
        )
        // The counter restarts at 0 exactly when this failure reached the threshold.
        guard let row, try row.int("failures") == 0 else { return nil }
        return try row.int("locked_until")
    }

    static func user(from row: SQLRow) throws -> User {
        User(
            id: try row.string("id"), phone: try row.string("phone"), name: try row.string("name"),
            pinHash: try row.string("pin_hash"), userHandle: try row.string("user_handle"),
            failedPaymentAuths: try row.int("failed_payment_auths"),
            paymentLockedUntil: try row.int("payment_locked_until"),
            phoneVerifiedAt: try row.optionalInt("phone_verified_at"),
            pinCoolingUntil: try row.int("pin_cooling_until")
        )
    }
}

extension SQLExecutor {
    /// `UserRepository` on this connection or transaction.
    package var users: UserRepository { UserRepository(sql: self) }
}
