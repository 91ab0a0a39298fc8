import ArgumentParser
import CountersignServer
import CountersignStore

/// `flows --prefill USERS:POSTINGS`: the history a store that has run for a while holds, written
/// straight into the tables the migrations made (as `scripts/audit-bench` does for the ledger), so
/// ten million postings take minutes rather than days of API calls. The books are sound: the audit
/// passes on the result.
///
/// What is written, for `users` users and `topUps = (postings - 2 × users) / 4` top-ups:
/// - per user: the user, a wallet and a cashback account, one device key, one live session, and a
///   funding from the operator (one wallet transaction, one entry of two postings);
/// - per top-up, spread over the last 30 days and over the users in turn: the wallet transaction
///   (two in three completed with 1 % cashback, one in three failed), its two entries of two
///   postings each (the debit, then the cashback or the reversal), and its done idempotency key;
/// - per top-up again, in the last hour: one consumed payment challenge and one spent verification
///   token. The purger keeps these for an hour past their expiry, so a store that has run at the
///   bench's own pace holds about this many; older history of theirs would already be gone.
struct Prefill: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let users: Int
    let postings: Int

    init?(argument: String) {
        let parts = argument.split(separator: ":")
        guard parts.count == 2, let users = Int(parts[0]), let postings = Int(parts[1]), users > 0,
            users <= 100_000_000, postings >= 2 * users, postings <= 1_000_000_000
        else { return nil }
        self.init(users: users, postings: postings)
    }

    init(users: Int, postings: Int) {
        self.users = users
        self.postings = postings
    }

    var description: String { "\(users) users, \(postingsWritten) postings" }

    /// Top-ups: each writes four postings, after the two of each user's funding.
    var topUps: Int { (postings - 2 * users) / 4 }

    /// The postings actually written (`postings` rounded down to whole top-ups).
    var postingsWritten: Int { 2 * users + 4 * topUps }

    static let currency = "NGN"
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000

    /// Each user's funding: enough for every top-up of theirs, whatever the ratio of postings to users.
    var funding: Int64 { Int64(topUps / users + 1) * 100_000 + 1_000_000 }

    /// The id of the last posting written: a store holding it holds the whole prefill (one transaction).
    var lastPostingId: String { topUps > 0 ? "pst_pf_s\(10_000_000_000 + topUps - 1)b" : "pst_pf_f\(pad(users - 1))b" }

    private func pad(_ n: Int) -> String { "\(10_000_000_000 + n)" }

    /// The statements that write the history, in order, for one transaction on `engine`.
    func statements(engine: DatabaseEngine, now: Int64) -> [String] {
        let start = now - 30 * Self.day
        let step = topUps > 0 ? max(1, (30 * Self.day - Self.hour) / Int64(topUps)) : 1
        let users = series(self.users, engine)
        let topUps = series(self.topUps, engine)
        // Ids are zero-padded by an offset so they sort as they are written: the B-trees append.
        let user = "'usr_pf_' || (10000000000 + i)"
        let owner = "'usr_pf_' || (10000000000 + i % \(self.users))"
        let n = "(10000000000 + i)"
        let amount = "(100 + (i * 7919) % 99900)"
        let failed = "i % 3 = 2"
        let at = "(\(start) + i * \(step))"
        let recent = "(\(now - 50 * 60_000) + (i * \(50 * 60_000)) / \(max(self.topUps, 1)))"
        let (funding, clearing, expense) = (
            SystemAccount.funding(Self.currency), SystemAccount.supplierClearing(Self.currency),
            SystemAccount.cashbackExpense(Self.currency)
        )
        func account(_ owner: String, _ kind: String) -> String { "'acct:' || \(owner) || ':\(kind):\(Self.currency)'" }

        var statements = SystemAccount.all(Self.currency).map { id in
            "INSERT INTO accounts (id, kind, currency, may_go_negative, created_at) VALUES ('\(id)', 'system', '\(Self.currency)', 1, \(start)) ON CONFLICT (id) DO NOTHING"
        }
        statements += [
            """
            INSERT INTO users (id, phone, name, pin_hash, user_handle, created_at, phone_verified_at)
            SELECT \(user), '+2347' || (100000000 + i), 'Prefill', '-', 'pfh_' || \(n), \(start), \(start) FROM \(users)
            """,
            """
            INSERT INTO accounts (id, user_id, kind, currency, may_go_negative, created_at)
            SELECT \(account(user, "wallet")), \(user), 'wallet', '\(Self.currency)', 0, \(start) FROM \(users)
            """,
            """
            INSERT INTO accounts (id, user_id, kind, currency, may_go_negative, created_at)
            SELECT \(account(user, "cashback")), \(user), 'cashback', '\(Self.currency)', 0, \(start) FROM \(users)
            """,
            """
            INSERT INTO credentials (id, user_id, public_key, algorithm, sign_count, backup_eligible, backup_state,
                transports, attestation_format, attestation_verified, aaguid, created_at)
            SELECT 'cred_pf_' || \(n), \(user), '-', -7, 0, 0, 0, '[]', 'none', 0,
                '00000000-0000-0000-0000-000000000000', \(start) FROM \(users)
            """,
            """
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, proof)
            SELECT 'pfs_' || \(n), \(user), \(now - Self.hour), \(now + 30 * Self.day), \(now - Self.hour), 'pin'
            FROM \(users)
            """,
            """
            INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, external_reference,
                created_at, updated_at)
            SELECT 'wtx_pf_f' || \(n), \(user), 'funding', 'completed', \(self.funding), '\(Self.currency)',
                'prefill:' || \(n), \(start), \(start) FROM \(users)
            """,
            """
            INSERT INTO ledger_transactions (id, kind, reference, created_at)
            SELECT 'ltx_pf_f' || \(n), 'funding', 'wtx_pf_f' || \(n), \(start) FROM \(users)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_f' || \(n) || 'a', 'ltx_pf_f' || \(n), '\(funding)', -\(self.funding), \(start) FROM \(users)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_f' || \(n) || 'b', 'ltx_pf_f' || \(n), \(account(user, "wallet")), \(self.funding), \(start)
            FROM \(users)
            """,
        ]
        guard self.topUps > 0 else { return statements + [Self.balances] }
        statements += [
            """
            INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, product_code,
                recipient_phone, supplier_slug, authorized_by, cashback_earned, external_reference, idempotency_key,
                failure_code, created_at, updated_at)
            SELECT 'wtx_pf_t' || \(n), \(owner), 'topup', CASE WHEN \(failed) THEN 'failed' ELSE 'completed' END,
                \(amount), '\(Self.currency)', 'AIRTIME_MTN', '+2348' || (100000000 + i % 1000000), 'mtn', 'biometric',
                CASE WHEN \(failed) THEN 0 ELSE \(amount) / 100 END,
                CASE WHEN \(failed) THEN NULL ELSE 'pf-receipt-' || \(n) END, 'pfk_' || \(n),
                CASE WHEN \(failed) THEN 'supplier_failed' ELSE NULL END, \(at), \(at)
            FROM \(topUps)
            """,
            """
            INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, claim_id, transaction_id, state,
                response_status, response_body, created_at, owner_instance)
            SELECT \(owner), 'pfk_' || \(n), '-', 'clm_pf_' || \(n), 'wtx_pf_t' || \(n), 'done', 200, '{}', \(at),
                'srv_prefill'
            FROM \(topUps)
            """,
            """
            INSERT INTO ledger_transactions (id, kind, reference, created_at)
            SELECT 'ltx_pf_t' || \(n), 'topup', 'wtx_pf_t' || \(n), \(at) FROM \(topUps)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_t' || \(n) || 'a', 'ltx_pf_t' || \(n), '\(clearing)', \(amount), \(at) FROM \(topUps)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_t' || \(n) || 'b', 'ltx_pf_t' || \(n), \(account(owner, "wallet")), -\(amount), \(at)
            FROM \(topUps)
            """,
            """
            INSERT INTO ledger_transactions (id, kind, reference, created_at)
            SELECT 'ltx_pf_s' || \(n), CASE WHEN \(failed) THEN 'topup_reversal' ELSE 'cashback' END,
                'wtx_pf_t' || \(n), \(at) FROM \(topUps)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_s' || \(n) || 'a', 'ltx_pf_s' || \(n),
                CASE WHEN \(failed) THEN '\(clearing)' ELSE '\(expense)' END,
                CASE WHEN \(failed) THEN -\(amount) ELSE -(\(amount) / 100) END, \(at)
            FROM \(topUps)
            """,
            """
            INSERT INTO postings (id, ledger_transaction_id, account_id, amount, created_at)
            SELECT 'pst_pf_s' || \(n) || 'b', 'ltx_pf_s' || \(n),
                CASE WHEN \(failed) THEN \(account(owner, "wallet")) ELSE \(account(owner, "cashback")) END,
                CASE WHEN \(failed) THEN \(amount) ELSE \(amount) / 100 END, \(at)
            FROM \(topUps)
            """,
            """
            INSERT INTO challenges (challenge, user_id, purpose, intent, intent_digest, user_verification, created_at,
                expires_at, consumed_at)
            SELECT 'pfc_' || \(n), \(owner), 'authentication', '{}', '-', 'required', \(recent), \(recent) + 300000,
                \(recent) + 1000
            FROM \(topUps)
            """,
            """
            INSERT INTO consumed_tokens (jti, user_id, consumed_at, expires_at)
            SELECT 'pfj_' || \(n), \(owner), \(recent) + 1000, \(recent) + 300000 FROM \(topUps)
            """,
        ]
        return statements + [Self.balances]
    }

    /// The cached balances of the prefilled users' accounts, from their postings.
    private static let balances = """
        UPDATE accounts SET balance = (SELECT COALESCE(SUM(p.amount), 0) FROM postings p WHERE p.account_id = accounts.id)
        WHERE user_id LIKE 'usr_pf_%'
        """

    /// `0 ..< count` as rows of one BIGINT column `i`, in a FROM clause.
    private func series(_ count: Int, _ engine: DatabaseEngine) -> String {
        switch engine {
        case .postgres: "generate_series(CAST(0 AS BIGINT), \(count - 1)) AS s(i)"
        case .sqlite:
            "(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < \(count)) SELECT i FROM s) AS s"
        }
    }
}
