import CountersignAPI
import CountersignStore
import Foundation

/// Operator flags, the operator action log and the audit log, in SQL both engines share.
package struct OperatorRepository: Sendable {
    let sql: any SQLExecutor

    /// Flags or unflags the user with `phone`; returns the user's id, or nil if no user has it.
    package func setOperator(phone: String, _ isOperator: Bool) async throws -> String? {
        try await sql.first(
            "UPDATE users SET is_operator = $1 WHERE phone = $2 RETURNING id",
            [.integer(isOperator ? 1 : 0), .text(phone)]
        )?.string("id")
    }

    /// Whether `userId` is an operator.
    package func isOperator(userId: String) async throws -> Bool {
        try await sql.first("SELECT is_operator FROM users WHERE id = $1", [.text(userId)])?.int("is_operator") == 1
    }

    /// The store's headline numbers at `now`: users, users locked now, and the sum of user wallets.
    package func totals(currency: String, now: Int64) async throws -> (
        users: Int64, locked: Int64, walletFloat: Int64
    ) {
        let row = try await sql.first(
            """
            SELECT (SELECT COUNT(*) FROM users) AS users,
                (SELECT COUNT(*) FROM users
                    WHERE payment_locked_until > $1 OR pin_locked_until > $1 OR pin_blocked <> 0) AS locked,
                (SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM accounts
                    WHERE user_id IS NOT NULL AND kind = 'wallet' AND currency = $2) AS wallet_float
            """, [.integer(now), .text(currency)])
        return (try row?.int("users") ?? 0, try row?.int("locked") ?? 0, try row?.int("wallet_float") ?? 0)
    }

    /// At most `limit` users whose phone number starts with `prefix` (digits after a `+`), by number.
    package func search(phonePrefix prefix: String, limit: Int, now: Int64) async throws
        -> [OperatorAccount]
    {
        // The prefix is `+` and digits only (checked by the caller), so LIKE sees no wildcard in it.
        try await sql.query(
            "SELECT \(Self.accountColumns) FROM users WHERE phone LIKE $1 ORDER BY phone LIMIT $2",
            [.text(prefix + "%"), .integer(Int64(limit))]
        ).map(Self.account(from:))
    }

    /// One user's account as operators see it, or nil.
    package func account(userId: String) async throws -> OperatorAccount? {
        try await sql.first("SELECT \(Self.accountColumns) FROM users WHERE id = $1", [.text(userId)]).map(
            Self.account(from:))
    }

    /// Clears the user's payment and PIN failure counts, locks, lock level and block; the account as it was, or nil if
    /// there is no such user. (PIN checks still being judged keep their reservation.)
    package func unlock(userId: String) async throws -> OperatorAccount? {
        guard let before = try await account(userId: userId) else { return nil }
        try await sql.execute(
            """
            UPDATE users SET failed_payment_auths = 0, payment_locked_until = 0, failed_pin_attempts = 0,
                pin_locked_until = 0, pin_lock_level = 0, pin_blocked = 0 WHERE id = $1
            """, [.text(userId)])
        return before
    }

    static let accountColumns =
        "id, phone, name, is_operator, created_at, failed_payment_auths, payment_locked_until, failed_pin_attempts, pin_locked_until, pin_blocked, phone_verified_at"

    static func account(from row: SQLRow) throws -> OperatorAccount {
        OperatorAccount(
            id: try row.string("id"), phone: try row.string("phone"), name: try row.string("name"),
            isOperator: try row.int("is_operator") == 1, createdAt: try row.int("created_at"),
            failedPaymentAuths: try row.int("failed_payment_auths"),
            paymentLockedUntil: try row.int("payment_locked_until"),
            failedPinAttempts: try row.int("failed_pin_attempts"), pinLockedUntil: try row.int("pin_locked_until"),
            pinBlocked: try row.int("pin_blocked") != 0, phoneVerified: try row.optionalInt("phone_verified_at") != nil)
    }

    /// Appends an action to the log.
    package func record(_ action: OperatorAction) async throws {
        try await sql.execute(
            """
            INSERT INTO operator_actions (id, operator_id, via, action, target_user_id, detail, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(action.id), .text(action.operatorId), .text(action.via), .text(action.action),
                .text(action.targetUserId), .text(action.detail), .integer(action.createdAt),
            ])
    }

    /// The latest actions, newest first (at most `limit`, 1 to 200).
    package func actions(limit: Int) async throws -> [OperatorAction] {
        try await sql.query(
            """
            SELECT id, operator_id, via, action, target_user_id, detail, created_at FROM operator_actions
            ORDER BY created_at DESC, id DESC LIMIT $1
            """, [.integer(Int64(min(max(limit, 1), 200)))]
        ).map { row in
            OperatorAction(
                id: try row.string("id"), operatorId: try row.optionalString("operator_id"), via: try row.string("via"),
                action: try row.string("action"), targetUserId: try row.optionalString("target_user_id"),
                detail: try row.string("detail"), createdAt: try row.int("created_at"))
        }
    }

    /// Records an audit's outcome.
    package func record(_ run: AuditRun) async throws {
        try await sql.execute(
            "INSERT INTO audit_runs (id, passed, failed_checks, report, via, ran_at) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                .text(run.id), .integer(run.passed ? 1 : 0), .text(run.failedChecks.joined(separator: ",")),
                .text(run.report), .text(run.via), .integer(run.ranAt),
            ])
    }

    /// The most recent audit, if any ran.
    package func lastAudit() async throws -> AuditRun? {
        guard
            let row = try await sql.first(
                "SELECT id, passed, failed_checks, report, via, ran_at FROM audit_runs ORDER BY ran_at DESC, id DESC LIMIT 1"
            )
        else { return nil }
        let failed = try row.string("failed_checks")
        return AuditRun(
            id: try row.string("id"), passed: try row.int("passed") == 1,
            failedChecks: failed.isEmpty ? [] : failed.split(separator: ",").map(String.init),
            report: try row.string("report"), via: try row.string("via"), ranAt: try row.int("ran_at"))
    }

    /// Records the reversal of its original; false if that original was reversed already.
    func recordReversal(_ reversal: OperatorReversal, operatorId: String, now: Int64) async throws -> Bool {
        try await sql.first(
            """
            INSERT INTO reversals (id, original_kind, original_id, operator_id, reason, currency, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (original_kind, original_id) DO NOTHING RETURNING id
            """,
            [
                .text(reversal.id), .text(reversal.originalKind), .text(reversal.originalId), .text(operatorId),
                .text(reversal.reason), .text(reversal.currency), .integer(now),
            ]) != nil
    }
}

extension SQLExecutor {
    /// `OperatorRepository` on this connection or transaction.
    package var operators: OperatorRepository { OperatorRepository(sql: self) }
}
