import CountersignAPI
import CountersignStore

/// Every check of an account PIN — login, a PIN payment, the step-up before a new device key —
/// goes through here, against one count of PIN failures per account.
///
/// The attempt is reserved in the database before the (deliberately slow) hash runs, so however
/// many guesses arrive at once, at most `threshold` are judged before the PIN locks: while that
/// many are counted (wrong, or still being judged), later ones are refused unhashed (429 while some
/// are in flight, 423 once the lock is set). Only a correct PIN clears the count, and never a lock
/// already set; a good device signature clears nothing.
///
/// A reservation outlives its process by `staleCheckMillis` at most (so a crash cannot leave the PIN
/// busy for good); a check is therefore judged only if its hash starts within `hashStartMillis` of
/// the reservation and its verdict is written within `verdictMillis`, both well inside that: a
/// check kept waiting in a flooded hashing queue is dropped unjudged (503), never judged after its
/// slot was given to another guess.
///
/// Each lock is longer than the one before (`PinLockSchedule`); the last blocks the PIN until an
/// operator unlocks it.
package struct PinGuard: Sendable {
    let database: any Database
    let pins: PinHasher
    let clock: WallClock
    let threshold: Int64
    let schedule: PinLockSchedule
    let metrics: ServerMetrics

    /// What a judged PIN turned out to be.
    package enum Verdict: Sendable, Equatable {
        case correct
        /// Wrong; `lockedFor` is set when the PIN is locked now (seconds until it unlocks).
        case wrong(lockedFor: Int?)
    }

    /// Reserves an attempt and judges `pin` against `user`'s hash. Throws `PinLocked` while the PIN
    /// is locked (a correct PIN included), `PinChecksBusy` while `threshold` attempts are counted
    /// and some still being judged, `PinHashRefused` when the hashing pool could not judge it in
    /// time, and `APIError.pinResetRequired` once the PIN is blocked; none of these counts.
    package func check(_ pin: String, user: User) async throws -> Verdict {
        let reservedAt = clock.nowMillis()
        let staleBefore = reservedAt - Self.staleCheckMillis
        let reservation = try await database.transaction { sql in
            try await sql.users.reservePinAttempt(
                userId: user.id, threshold: threshold, now: reservedAt, staleBefore: staleBefore)
        }
        switch reservation {
        case .locked(let until): throw PinLocked(retryAfter: Self.seconds(from: reservedAt, to: until))
        case .blocked: throw APIError.pinResetRequired
        case .busy: throw PinChecksBusy()
        case .reserved: break
        }
        let correct: Bool
        do {
            correct = try await pins.verify(pin, against: user.pinHash, startBy: reservedAt + Self.hashStartMillis)
            guard clock.nowMillis() <= reservedAt + Self.verdictMillis else { throw PinHashRefused() }
        } catch {
            try await database.transaction { sql in try await sql.users.releasePinAttempt(userId: user.id) }
            throw error
        }
        let now = clock.nowMillis()
        let record = try await database.transaction { sql in
            try await sql.users.recordPinVerdict(
                userId: user.id, correct: correct, threshold: threshold, now: now, schedule: schedule)
        }
        switch (record, correct) {
        case (.cleared, _): return .correct
        case (.counted, _): return .wrong(lockedFor: nil)
        case (.locked(let until), true): throw PinLocked(retryAfter: Self.seconds(from: now, to: until))
        case (.locked(let until), false):
            metrics.lockout(kind: "pin")
            return .wrong(lockedFor: Self.seconds(from: now, to: until))
        case (.blocked, _):
            if !correct { metrics.lockout(kind: "pin_blocked") }
            throw APIError.pinResetRequired
        }
    }

    /// A step-up: `check`, with every outcome but `correct` thrown as the API answers it: 401
    /// `step_up_failed` for a wrong PIN, 423 `pin_locked` when locked (or this failure locked it).
    package func confirm(_ pin: String, user: User) async throws {
        let verdict: Verdict
        do {
            verdict = try await check(pin, user: user)
        } catch let locked as PinLocked {
            throw APIError.pinLocked(retryAfter: locked.retryAfter)
        }
        switch verdict {
        case .correct: return
        case .wrong(let lockedFor?): throw APIError.pinLocked(retryAfter: lockedFor)
        case .wrong(nil): throw APIError(.stepUpFailed, "The PIN is incorrect.")
        }
    }

    /// A check reserved this long ago without a verdict belonged to a process that died (or a task
    /// torn down) mid-hash: it stops counting, or a crash would leave the PIN busy for good. Its
    /// client never had an answer, so nothing was learnt from it.
    static let staleCheckMillis: Int64 = 10_000
    /// A hash must start this soon after its reservation, and its verdict be written this soon, or
    /// the check is dropped unjudged. The hash takes about 0.1 s; the margins below
    /// `staleCheckMillis` absorb the write and clocks of several servers that disagree a little.
    static let hashStartMillis: Int64 = 5_000
    static let verdictMillis: Int64 = 8_000

    /// Whole seconds from `now` until `until`, at least 1.
    static func seconds(from now: Int64, to until: Int64) -> Int {
        let (difference, overflow) = until.subtractingReportingOverflow(now)
        guard !overflow, difference > 0 else { return 1 }
        return Int(min(difference / 1000 + (difference % 1000 == 0 ? 0 : 1), Int64(Int32.max)))
    }
}

/// The PIN is locked after too many failures; nothing was judged.
package struct PinLocked: Error, Sendable {
    package let retryAfter: Int
}

/// As many PIN checks as the lockout allows are still being judged: this one was not (429).
package struct PinChecksBusy: Error, Sendable {}

extension APIError {
    /// 429: the account's PIN checks are all in flight; retry in a second.
    package static let pinChecksBusy = APIError(
        .pinChecksBusy, "Other PIN checks for this account are still running. Retry in a moment.", retryAfter: 1
    )
}

/// The outcome of reserving a PIN attempt.
package enum PinReservation: Sendable, Equatable {
    /// Counted: judge it.
    case reserved
    /// The PIN is locked until this instant (milliseconds).
    case locked(until: Int64)
    /// The PIN is blocked: locks escalated to the last level.
    case blocked
    /// As many attempts as the lockout allows are counted (failed or in flight), some in flight.
    case busy
}

/// What a recorded verdict left the PIN as.
package enum PinVerdictRecord: Sendable, Equatable {
    /// Correct: the count and the lock level are cleared.
    case cleared
    /// Wrong, counted, not locked.
    case counted
    /// Locked until this instant (milliseconds), by this failure or another.
    case locked(until: Int64)
    /// Blocked: only an operator lifts it.
    case blocked
}

/// How long each PIN lock lasts: the first `base`, then four times longer each time, the fourth
/// lock since the last correct PIN blocks. Five guesses a lock: twenty before a block, where a
/// lock that never grew allowed about 480 a day.
package struct PinLockSchedule: Sendable, Equatable {
    /// The first lock's length, in seconds.
    package let base: Int64

    /// The level (the count of locks since the last correct PIN) at which the PIN blocks.
    static let blockingLevel: Int64 = 4

    package init(base: Int64) { self.base = max(1, base) }

    /// The lock's length at `level` (1 to 3), in seconds.
    package func seconds(level: Int64) -> Int64 {
        let factor: Int64 = level <= 1 ? 1 : (level == 2 ? 4 : 16)
        let (product, overflow) = base.multipliedReportingOverflow(by: factor)
        return overflow ? Int64(Int32.max) : min(product, Int64(Int32.max))
    }

    /// When a lock set at `now` at `level` ends (milliseconds).
    func until(level: Int64, now: Int64) -> Int64 {
        let (end, overflow) = now.addingReportingOverflow(seconds(level: level) * 1000)
        return overflow ? .max : end
    }
}

extension APIError {
    /// 423: locks escalated to a block; nothing was judged.
    package static let pinResetRequired = APIError(
        .pinResetRequired,
        "The PIN is blocked after repeated failures. An operator must unlock the account.")
}
