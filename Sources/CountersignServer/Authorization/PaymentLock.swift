import CountersignAPI
import CountersignStore

/// Five consecutive failed payment authentications (PIN or device signature, counted together)
/// lock payment authorization for a while. A success resets this count; PIN failures are also
/// counted, per account, by `PinGuard`, which only a correct PIN clears.
package struct PaymentLock: Sendable {
    let database: any Database
    let clock: WallClock
    let threshold: Int64
    let lockSeconds: Int64
    let metrics: ServerMetrics

    /// Throws 423 `payment_locked` while the user's payment authorization is locked.
    package func ensureUnlocked(_ user: User) throws(APIError) {
        let now = clock.nowMillis()
        if user.paymentLockedUntil > now {
            throw APIError.paymentLocked(retryAfter: Int((user.paymentLockedUntil - now + 999) / 1000))
        }
    }

    /// Counts a failure in its own transaction (it must survive the request's rollback) and returns
    /// the error to send: 423 if this failure locked, else `failure`.
    package func recordFailure(userId: String, failure: APIError) async throws -> APIError {
        try await database.transaction { sql in try await recordFailure(userId: userId, failure: failure, on: sql) }
    }

    /// Counts a failure inside the caller's transaction.
    package func recordFailure(userId: String, failure: APIError, on sql: any SQLExecutor) async throws -> APIError {
        let lockUntil = clock.nowMillis() + lockSeconds * 1000
        let lockedUntil = try await sql.users.recordPaymentFailure(
            userId: userId, threshold: threshold, lockUntil: lockUntil)
        guard lockedUntil != nil else { return failure }
        metrics.lockout(kind: "payment")
        return APIError.paymentLocked(retryAfter: Int(lockSeconds))
    }

    /// Judges a PIN offered to authorize a payment: 423 while the PIN or payments are locked (nothing
    /// judged), 401 `authorization_failed` if it is wrong (423 if that failure locked either).
    package func checkPIN(_ pin: String, user: User, guard pinGuard: PinGuard) async throws {
        let verdict: PinGuard.Verdict
        do {
            verdict = try await pinGuard.check(pin, user: user)
        } catch let locked as PinLocked {
            metrics.authorization(factor: "pin", outcome: ErrorCode.paymentLocked.rawValue)
            throw APIError.paymentLocked(retryAfter: locked.retryAfter)
        }
        guard case .wrong(let pinLockedFor) = verdict else {
            metrics.authorization(factor: "pin", outcome: "accepted")
            return
        }
        metrics.authorization(factor: "pin", outcome: ErrorCode.authorizationFailed.rawValue)
        let failure = try await recordFailure(userId: user.id, failure: .authorizationFailed)
        if let pinLockedFor { throw APIError.paymentLocked(retryAfter: pinLockedFor) }
        throw failure
    }
}
