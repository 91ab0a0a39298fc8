import CountersignCore
import CountersignStore

/// The kinds of account the ledger holds.
package enum AccountKind: String, Sendable {
    /// A user's spendable balance; never negative.
    case wallet
    /// A user's cashback balance; never negative.
    case cashback
    /// What a seller has been paid for orders not yet completed: held until the buyer confirms
    /// receipt; never negative.
    case escrow
    /// What a seller has earned on completed orders, owed to them until paid out; never negative.
    case payable
    /// What a seller owes us: refunds of completed orders beyond their payable, which we paid. The
    /// one user account allowed below zero (an asset, like the provider's clearing account); zero or
    /// negative.
    case receivable
}

/// The system accounts on the other side of users' money. Their balances are derived from their
/// postings rather than cached, so concurrent payments don't all update one hot row.
package enum SystemAccount {
    /// Money that entered from outside (operator funding); goes negative by design.
    package static func funding(_ currency: String) -> String { "sys:funding:\(currency)" }
    /// Money owed to airtime suppliers for purchases made.
    package static func supplierClearing(_ currency: String) -> String { "sys:supplier_clearing:\(currency)" }
    /// Cashback paid out; goes negative by design.
    package static func cashbackExpense(_ currency: String) -> String { "sys:cashback_expense:\(currency)" }
    /// Fees earned on transfers.
    package static func transferFees(_ currency: String) -> String { "sys:transfer_fees:\(currency)" }
    /// Money payment providers collected from buyers and owe us; goes negative by design (an asset).
    package static func providerClearing(_ currency: String) -> String { "sys:provider_clearing:\(currency)" }
    /// Payment-method fees charged to buyers at checkout.
    package static func paymentFees(_ currency: String) -> String { "sys:payment_fees:\(currency)" }
    /// Order refunds asked of the payment provider and not yet settled: out of the seller's reach,
    /// so they can be neither released nor refunded twice.
    package static func refundClearing(_ currency: String) -> String { "sys:refund_clearing:\(currency)" }
    /// Every system account id for `currency`.
    package static func all(_ currency: String) -> [String] {
        [
            funding(currency), supplierClearing(currency), cashbackExpense(currency), transferFees(currency),
            providerClearing(currency), paymentFees(currency), refundClearing(currency),
        ]
    }
}

/// Accounts and the double-entry postings that move money between them.
package protocol LedgerRepository: Sendable {
    /// Creates one account of the user's (idempotent) and returns its id.
    func openAccount(userId: String, kind: AccountKind, currency: String, now: Int64, on sql: any SQLExecutor)
        async throws -> String
    /// Creates the user's wallet and cashback accounts (idempotent) and returns their ids.
    func openAccounts(userId: String, currency: String, now: Int64, on sql: any SQLExecutor) async throws -> (
        wallet: String, cashback: String
    )
    /// Creates the system accounts for `currency` if missing.
    func openSystemAccounts(currency: String, now: Int64, on sql: any SQLExecutor) async throws
    /// The id of a user's account.
    func accountId(userId: String, kind: AccountKind, currency: String) -> String
    /// Applies a balanced entry: cached balances move, postings are written. Throws
    /// `LedgerError.insufficientFunds` (and the caller's transaction rolls back) if a user account
    /// would go below zero.
    func post(_ entry: LedgerEntry, now: Int64, on sql: any SQLExecutor) async throws
    /// The balance of an account: cached for user accounts, summed from postings for system ones.
    func balance(accountId: String, on sql: any SQLExecutor) async throws -> Int64
}

extension LedgerRepository {
    /// The balance of one of a user's accounts; 0 if it was never opened.
    package func balance(userId: String, kind: AccountKind, currency: String, on sql: any SQLExecutor) async throws
        -> Int64
    {
        try await balance(accountId: accountId(userId: userId, kind: kind, currency: currency), on: sql)
    }
}

/// `LedgerRepository` in shared SQL.
package struct LedgerSQLRepository: LedgerRepository {
    package init() {}

    package func accountId(userId: String, kind: AccountKind, currency: String) -> String {
        "acct:\(userId):\(kind.rawValue):\(currency)"
    }

    package func openAccount(userId: String, kind: AccountKind, currency: String, now: Int64, on sql: any SQLExecutor)
        async throws -> String
    {
        let id = accountId(userId: userId, kind: kind, currency: currency)
        try await sql.execute(
            """
            INSERT INTO accounts (id, user_id, kind, currency, may_go_negative, created_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (id) DO NOTHING
            """,
            [
                .text(id), .text(userId), .text(kind.rawValue), .text(currency), .integer(kind == .receivable ? 1 : 0),
                .integer(now),
            ]
        )
        return id
    }

    package func openAccounts(userId: String, currency: String, now: Int64, on sql: any SQLExecutor) async throws -> (
        wallet: String, cashback: String
    ) {
        (
            try await openAccount(userId: userId, kind: .wallet, currency: currency, now: now, on: sql),
            try await openAccount(userId: userId, kind: .cashback, currency: currency, now: now, on: sql)
        )
    }

    package func openSystemAccounts(currency: String, now: Int64, on sql: any SQLExecutor) async throws {
        for id in SystemAccount.all(currency) {
            try await sql.execute(
                "INSERT INTO accounts (id, kind, currency, may_go_negative, created_at) VALUES ($1, $2, $3, 1, $4) ON CONFLICT (id) DO NOTHING",
                [.text(id), .text("system"), .text(currency), .integer(now)]
            )
        }
    }

    package func post(_ entry: LedgerEntry, now: Int64, on sql: any SQLExecutor) async throws {
        let transactionId = Identifier.make("ltx")
        try await sql.execute(
            "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ($1, $2, $3, $4)",
            [.text(transactionId), .text(entry.kind), .text(entry.reference), .integer(now)]
        )
        // One lock order for every transaction (user accounts by id, then system accounts), so
        // two transactions touching the same accounts on PostgreSQL cannot deadlock.
        for posting in entry.postings.sorted(by: { $0.accountId < $1.accountId }) {
            if !posting.accountId.hasPrefix("sys:") {
                // The guard in WHERE makes the debit and the funds check one atomic step: under
                // concurrency no two debits can both see the same balance. CHECK (balance >= 0)
                // backs it up. Only a seller's receivable may go below zero.
                let updated = try await sql.query(
                    "UPDATE accounts SET balance = balance + $1 WHERE id = $2 AND (balance + $1 >= 0 OR may_go_negative = 1) RETURNING balance",
                    [.integer(posting.amount), .text(posting.accountId)]
                )
                guard !updated.isEmpty else { throw LedgerError.insufficientFunds(accountId: posting.accountId) }
            }
            try await sql.execute(
                "INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at) VALUES ($1, $2, $3, $4, $5)",
                [
                    .text(Identifier.make("pst")), .text(transactionId), .text(posting.accountId),
                    .integer(posting.amount), .integer(now),
                ]
            )
        }
    }

    package func balance(accountId: String, on sql: any SQLExecutor) async throws -> Int64 {
        if accountId.hasPrefix("sys:") {
            return try await sql.first(
                "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM postings WHERE account_id = $1",
                [.text(accountId)])?.int("total") ?? 0
        }
        return try await sql.first("SELECT balance FROM accounts WHERE id = $1", [.text(accountId)])?.int("balance")
            ?? 0
    }
}
