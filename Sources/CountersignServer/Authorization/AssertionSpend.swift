import CountersignAPI
import CountersignStore

/// An assertion checked but not yet spent: the payment's own transaction spends its challenge and
/// records the key's use, so the check and the money commit together (one transaction fewer, and
/// a payment refused in its transaction leaves the challenge open). A concurrent copy of the same
/// assertion loses at the challenge.
struct AssertionSpend: Sendable {
    let challenge: String
    let userId: String
    let credential: StoredCredential
    let signCount: Int64
    let backupState: Bool

    /// Another assertion moved the key's counter past this one's between the check and the spend: a
    /// replay or a cloned key. Thrown out of the payment's transaction, which then wrote nothing;
    /// `BiometricService.refuseBehindCounter` flags the key and counts the failure.
    struct CounterBehind: Error {
        let spend: AssertionSpend
    }

    /// Spends the challenge and records the use (the key neither flagged nor revoked since, its
    /// counter still behind this one's); throws `invalid_challenge` when a copy spent it first. With
    /// `renewingPinAllowance` (the user was verified) the PIN allowance starts again; on PostgreSQL the
    /// payer's accounts are locked too (`SpendingLimits.lock`), and all of it is one statement,
    /// which makes `claim` first (false: nothing written, the key was not claimed).
    func spend(
        now: Int64, renewingPinAllowance: Bool, locking accounts: [String], claiming claim: LinkedClaim? = nil,
        on sql: any SQLExecutor
    ) async throws -> Bool {
        if sql.engine == .postgres {
            let outcome = try await sql.challenges.spendPayment(
                challenge: challenge, userId: userId, credentialId: credential.id, signCount: signCount,
                backupState: backupState, renewingPinAllowance: renewingPinAllowance, locking: accounts,
                claiming: claim, now: now)
            guard outcome.claimed else { return false }
            guard outcome.spent else { throw Self.spentAlready }
            guard outcome.used else { throw CounterBehind(spend: self) }
            return true
        }
        if let claim {
            guard case .claimed = try await sql.idempotency.claim(claim) else { return false }
        }
        try await spend(now: now, on: sql)
        if renewingPinAllowance { try await sql.limits.renewPinAllowance(userId: userId) }
        return true
    }

    static var spentAlready: APIError {
        APIError(.invalidChallenge, "The challenge is unknown, expired or already used.")
    }

    /// Spends the challenge and records the use, in two statements.
    private func spend(now: Int64, on sql: any SQLExecutor) async throws {
        guard
            try await sql.challenges.consume(challenge: challenge, userId: userId, purpose: .authentication, now: now)
                != nil
        else { throw Self.spentAlready }
        guard
            try await sql.credentials.recordUse(
                id: credential.id, signCount: signCount, backupState: backupState, now: now)
        else { throw CounterBehind(spend: self) }
    }
}

extension BiometricService {
    /// The refusal of a payment whose assertion's counter was found behind when spent: the key is
    /// flagged and the failure counted, as a check that finds it behind does.
    func refuseBehindCounter(_ behind: AssertionSpend.CounterBehind) async throws -> APIError {
        let now = clock.nowMillis()
        try await flag(behind.spend.credential, reason: ErrorCode.signCountRegression.rawValue, now: now)
        return try await lock.recordFailure(
            userId: behind.spend.userId, failure: APIError(.signCountRegression, "Signature verification failed."))
    }
}
