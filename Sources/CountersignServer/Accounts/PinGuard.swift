import CountersignAPI
import CountersignStore

/// Every check of an account PIN — login, a PIN payment, the step-up before a new device key —
/// goes through here, against one count of PIN failures per account.
///
/// The attempt is reserved in the database before the (deliberately slow) hash runs, so however
/// many guesses arrive at once, at most `threshold` are judged before the PIN locks: while that
/// many are counted (wrong, or still being judged), later ones are refused unhashed (429 while some
/// are in flight, 423 once the lock is set). Only a correct PIN clears the count; a good device
/// signature does not.
package struct PinGuard: Sendable {
    let database: any Database
    let users: any UserRepository
    let pins: PinHasher
    let clock: WallClock
    let threshold: Int64
    let lockSeconds: Int64
    let metrics: ServerMetrics

    /// What a judged PIN turned out to be.
    package enum Verdict: Sendable, Equatable {
        case correct
        /// Wrong; `lockedFor` is set when this failure locked the PIN (seconds until it unlocks).
        case wrong(lockedFor: Int?)
    }

    /// Reserves an attempt and judges `pin` against `user`'s hash. Throws `PinLocked` while the PIN
    /// is locked, and `PinChecksBusy` while `threshold` attempts are counted and some still being
    /// judged; neither hashes.
    package func check(_ pin: String, user: User) async throws -> Verdict {
        let (users, now, threshold) = (self.users, clock.nowMillis(), self.threshold)
        let staleBefore = now - Self.staleCheckMillis
        let reservation = try await database.transaction { sql in
            try await users.reservePinAttempt(
                userId: user.id, threshold: threshold, now: now, staleBefore: staleBefore, on: sql)
        }
        switch reservation {
        case .locked(let until): throw PinLocked(retryAfter: Self.seconds(from: now, to: until))
        case .busy: throw PinChecksBusy()
        case .reserved: break
        }
        let correct = try await pins.verify(pin, against: user.pinHash)
        let lockUntil = clock.nowMillis() + lockSeconds * 1000
        let locked = try await database.transaction { sql in
            try await users.recordPinVerdict(
                userId: user.id, correct: correct, threshold: threshold, lockUntil: lockUntil, on: sql)
        }
        if correct { return .correct }
        if locked != nil { metrics.lockout(kind: "pin") }
        return .wrong(lockedFor: locked == nil ? nil : Int(lockSeconds))
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
    /// torn down) mid-hash: it stops counting, or a crash would leave the PIN busy for good. The hash
    /// takes about 0.1 s; 10 s is ample even on a loaded machine. Its client never had an answer,
    /// so nothing was learnt from it.
    static let staleCheckMillis: Int64 = 10_000

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
    /// As many attempts as the lockout allows are counted (failed or in flight), some in flight.
    case busy
}
