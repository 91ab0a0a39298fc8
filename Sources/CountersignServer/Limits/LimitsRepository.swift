import CountersignAPI
import CountersignStore

/// A user's own spending limits (`user_limits`), their tier (`user_tiers`), what counts against the
/// limits (`wallet_transactions`), and the PIN-only allowance (`pin_allowances`).
package struct LimitsRepository {
    let sql: any SQLExecutor

    /// A limit the user set, and a raise waiting for its delay.
    struct OwnLimit {
        let kind: SpendingLimitKind
        let amount: Int64
        let pending: (amount: Int64, from: Int64)?
    }

    /// What a user's spending limits in one currency rest on, read together.
    struct Snapshot {
        /// The tier an operator assigned the user, if any.
        let tier: String?
        let own: [OwnLimit]
        /// Paid out since the start of the two windows asked for (`paidOut(…since:alsoSince:)`), if asked.
        let paidOut: (total: Int64, recent: Int64)?
        /// The PIN-only allowance used in this currency (`pinAllowanceUsed`).
        let pinUsed: (payments: Int64, total: Int64)
        /// The balances of the wallet and cashback accounts asked for, 0 for one never opened, if asked.
        var balances: (wallet: Int64, cashback: Int64)? = nil
        /// The user's live (unrevoked) credentials, as `CredentialRepository.list`, if asked.
        var credentials: [StoredCredential]? = nil
    }

    /// The user's assigned tier, their own limits in `currency`, the PIN-only allowance they used in
    /// it and, with `windows`, what they paid out since `windows.since` and since
    /// `windows.alsoSince`: one statement where there were four. With `balancesOf`, the cached
    /// balances of the user's wallet and cashback accounts too (as `LedgerRepository.balance`), for
    /// the payment's check of funds before any gesture; `withCredentials`, the user's live
    /// credentials too (as `CredentialRepository.list`), for the keys a payment may offer.
    func snapshot(
        userId: String, currency: String, windows: (since: Int64, alsoSince: Int64)?,
        balancesOf accounts: (wallet: String, cashback: String)? = nil, withCredentials: Bool = false
    ) async throws -> Snapshot {
        let read = SnapshotRead(
            userId: userId, currency: currency, windows: windows, balancesOf: accounts,
            withCredentials: withCredentials)
        var binds: [SQLValue] = []
        let query = read.query(binds: &binds)
        return try read.snapshot(from: try await sql.query(query, binds))
    }

    /// The statement of `snapshot`, to run alone or inside another statement (a debit's, so the limits
    /// are read under the locks the debit's transaction holds), and the snapshot from its rows.
    struct SnapshotRead {
        let userId: String
        let currency: String
        let windows: (since: Int64, alsoSince: Int64)?
        var balancesOf: (wallet: String, cashback: String)? = nil
        var withCredentials = false

        /// The `SELECT`, its values appended to `binds` (numbered after those already there). It
        /// returns at least one row.
        func query(binds: inout [SQLValue]) -> String {
            func bind(_ value: SQLValue) -> String {
                binds.append(value)
                return "$\(binds.count)"
            }
            let (user, currency) = (bind(.text(userId)), bind(.text(self.currency)))
            var sums = ""
            var extraColumns = ""
            if let windows {
                let (since, alsoSince) = (bind(.integer(windows.since)), bind(.integer(windows.alsoSince)))
                sums = " CROSS JOIN (\(LimitsRepository.paidOutSelect(user, currency, since, alsoSince))) AS paid"
                extraColumns = ", paid.total, paid.recent"
            }
            if let accounts = balancesOf {
                let (wallet, cashback) = (bind(.text(accounts.wallet)), bind(.text(accounts.cashback)))
                extraColumns += """
                    , (SELECT balance FROM accounts WHERE id = \(wallet)) AS wallet_balance,
                        (SELECT balance FROM accounts WHERE id = \(cashback)) AS cashback_balance
                    """
            }
            // The credentials joined too give a row per own limit and credential (a few of each): each
            // limit and each credential is taken once, the credentials in `list`'s order.
            let (credentialColumns, credentialJoin, credentialOrder) =
                withCredentials
                ? (
                    ", k.*", "\nLEFT JOIN credentials k ON k.user_id = \(user) AND k.revoked_at IS NULL",
                    "\nORDER BY k.created_at, k.id"
                )
                : ("", "", "")
            return """
                SELECT t.tier, l.kind, l.amount, l.pending_amount, l.pending_from, p.payments AS pin_payments,
                    p.total AS pin_total\(extraColumns)\(credentialColumns)
                FROM (SELECT 1 AS one) AS base
                LEFT JOIN user_tiers t ON t.user_id = \(user)
                LEFT JOIN pin_allowances p ON p.user_id = \(user) AND p.currency = \(currency)
                LEFT JOIN user_limits l ON l.user_id = \(user) AND l.currency = \(currency)\(sums)\(credentialJoin)\(credentialOrder)
                """
        }

        /// The snapshot from the rows `query` returned.
        func snapshot(from rows: [SQLRow]) throws -> Snapshot {
            var own: [OwnLimit] = []
            var credentials: [StoredCredential] = []
            var seen: Set<String> = []
            for row in rows {
                if let kind = try row.optionalString("kind").flatMap(SpendingLimitKind.init(rawValue:)),
                    !own.contains(where: { $0.kind == kind })
                {
                    own.append(try LimitsRepository.ownLimit(kind: kind, row: row))
                }
                if withCredentials, let id = try row.optionalString("id"), seen.insert(id).inserted {
                    credentials.append(try CredentialRepository.credential(from: row))
                }
            }
            let first = rows.first
            return Snapshot(
                tier: try first?.optionalString("tier"), own: own,
                paidOut: try windows == nil ? nil : (first?.int("total") ?? 0, first?.int("recent") ?? 0),
                pinUsed: (try first?.optionalInt("pin_payments") ?? 0, try first?.optionalInt("pin_total") ?? 0),
                balances: try balancesOf == nil
                    ? nil
                    : (first?.optionalInt("wallet_balance") ?? 0, first?.optionalInt("cashback_balance") ?? 0),
                credentials: withCredentials ? credentials : nil)
        }
    }

    private static func ownLimit(kind: SpendingLimitKind, row: SQLRow) throws -> OwnLimit {
        var pending: (Int64, Int64)?
        if let amount = try row.optionalInt("pending_amount"), let from = try row.optionalInt("pending_from") {
            pending = (amount, from)
        }
        return OwnLimit(kind: kind, amount: try row.int("amount"), pending: pending)
    }

    /// The sums of `paidOut(…since:alsoSince:)`, with the user, the currency and the windows at the
    /// placeholders given: each the days after the window's first in `spending_days`, and the
    /// transactions of that first day after the window's start (triggers keep the days: migration
    /// 26). So a check reads one day of the payer's payments at most, however many the window holds.
    private static func paidOutSelect(_ user: String, _ currency: String, _ since: String, _ alsoSince: String)
        -> String
    {
        func windowSum(_ since: String) -> String {
            """
            COALESCE((SELECT SUM(amount) FROM spending_days
                WHERE user_id = \(user) AND currency = \(currency) AND day > \(since) / \(dayMilliseconds)), 0)
            + COALESCE((SELECT SUM(amount) FROM wallet_transactions
                WHERE user_id = \(user) AND currency = \(currency) AND \(counted) AND created_at > \(since)
                AND created_at < (\(since) / \(dayMilliseconds) + 1) * \(dayMilliseconds)), 0)
            """
        }
        return "SELECT CAST(\(windowSum(since)) AS BIGINT) AS total, CAST(\(windowSum(alsoSince)) AS BIGINT) AS recent"
    }

    /// A UTC day, the unit of `spending_days`.
    static let dayMilliseconds: Int64 = 86_400_000

    /// Which wallet transactions count against the limits (the triggers of migration 26 count the same).
    static let counted = "type IN ('topup', 'transfer_out', 'order_payment') AND status <> 'failed'"

    /// The tier an operator assigned the user, if any.
    func assignedTier(userId: String) async throws -> String? {
        try await sql.first("SELECT tier FROM user_tiers WHERE user_id = $1", [.text(userId)])?.string("tier")
    }

    /// Assigns the user `tier`, replacing any other.
    func assignTier(userId: String, tier: String, now: Int64) async throws {
        try await sql.execute(
            """
            INSERT INTO user_tiers (user_id, tier, assigned_at) VALUES ($1, $2, $3)
            ON CONFLICT (user_id) DO UPDATE SET tier = excluded.tier, assigned_at = excluded.assigned_at
            """, [.text(userId), .text(tier), .integer(now)])
    }

    /// Sets the user's `kind` limit: `amount` now, and `pending` from its time (a raise), or none.
    func set(
        userId: String, currency: String, kind: SpendingLimitKind, amount: Int64,
        pending: (amount: Int64, from: Int64)?,
        now: Int64
    ) async throws {
        try await sql.execute(
            """
            INSERT INTO user_limits (user_id, currency, kind, amount, pending_amount, pending_from, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (user_id, currency, kind) DO UPDATE SET amount = excluded.amount,
            pending_amount = excluded.pending_amount, pending_from = excluded.pending_from,
            updated_at = excluded.updated_at
            """,
            [
                .text(userId), .text(currency), .text(kind.rawValue), .integer(amount),
                pending.map { .integer($0.amount) } ?? .null, pending.map { .integer($0.from) } ?? .null,
                .integer(now),
            ])
    }

    /// What the user paid out of the `currency` wallet after `since` (top-ups, transfers, orders;
    /// failed ones not counted).
    func paidOut(userId: String, currency: String, since: Int64) async throws -> Int64 {
        try await paidOut(userId: userId, currency: currency, since: since, alsoSince: since).total
    }

    /// What the user paid out of the `currency` wallet after `since` and after `alsoSince`
    /// (`alsoSince` ≥ `since`), in one statement: the spending limits' two windows.
    func paidOut(userId: String, currency: String, since: Int64, alsoSince: Int64) async throws
        -> (total: Int64, recent: Int64)
    {
        let row = try await sql.first(
            Self.paidOutSelect("$1", "$2", "$3", "$4"),
            [.text(userId), .text(currency), .integer(since), .integer(alsoSince)])
        return (try row?.int("total") ?? 0, try row?.int("recent") ?? 0)
    }

    /// PIN-only payments and their total in `currency` since the last two-factor payment.
    func pinAllowanceUsed(userId: String, currency: String) async throws -> (payments: Int64, total: Int64) {
        let row = try await sql.first(
            "SELECT payments, total FROM pin_allowances WHERE user_id = $1 AND currency = $2",
            [.text(userId), .text(currency)])
        return (try row?.int("payments") ?? 0, try row?.int("total") ?? 0)
    }

    /// Counts a PIN-only payment of `amount` if it keeps within `maxPayments` and `cumulativeAmount`;
    /// false, counting nothing, otherwise. One guarded UPDATE: parallel payments serialize on the row.
    func spendPinAllowance(
        userId: String, currency: String, amount: Int64, maxPayments: Int64, cumulativeAmount: Int64
    ) async throws -> Bool {
        try await sql.execute(
            "INSERT INTO pin_allowances (user_id, currency, payments, total) VALUES ($1, $2, 0, 0) ON CONFLICT (user_id, currency) DO NOTHING",
            [.text(userId), .text(currency)])
        return try await sql.first(
            """
            UPDATE pin_allowances SET payments = payments + 1, total = total + $3
            WHERE user_id = $1 AND currency = $2 AND payments < $4 AND total <= $5 - $3 RETURNING payments
            """,
            [.text(userId), .text(currency), .integer(amount), .integer(maxPayments), .integer(cumulativeAmount)]
        ) != nil
    }

    /// Empties the user's PIN-only allowance in every currency.
    func renewPinAllowance(userId: String) async throws {
        try await sql.execute("DELETE FROM pin_allowances WHERE user_id = $1", [.text(userId)])
    }
}

extension SQLExecutor {
    /// `LimitsRepository` on this connection or transaction.
    package var limits: LimitsRepository { LimitsRepository(sql: self) }
}
