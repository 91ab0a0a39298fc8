import CountersignStore

/// One invariant of the books, as a query selecting the `id` of every row that breaks it. Each is
/// a single set-based statement in the SQL both engines share: the database joins and groups, the
/// audit never walks rows itself.
///
/// What the services write, and so what the checks expect (`ledger_transactions.kind`, `reference`):
/// a top-up's debit `topup` (reference: its wallet transaction), then on delivery `cashback` when
/// it earned any, or on failure `topup_reversal`; operator funding `funding` (its wallet
/// transaction); a funding through the payment provider `wallet_funding` once it succeeded (the
/// funding, whose wallet transaction has the same id); a successful transfer `transfer` (the
/// transfer); a paid order `order_payment` (from the provider's clearing or, paid from the wallet,
/// the buyer's wallet) and, once completed, `order_release` of what its refunds
/// left (the order); a refund `order_refund`, then `order_refund_settled` once the provider paid it
/// or `order_refund_failed` once it could not (the refund); an operator's reversal
/// `transfer_reversal` or `funding_reversal` (the reversal, which names its original).
package struct LedgerAuditCheck: Sendable {
    /// A stable snake_case name, for reports and scripts.
    package let name: String
    /// The invariant, in a line.
    package let summary: String
    /// `SELECT … AS id …`: the offending rows.
    let offenders: String
    /// The statement's parameters at the audit's `now`.
    let binds: @Sendable (_ now: Int64) -> [SQLValue]

    init(
        _ name: String, _ summary: String, _ offenders: String,
        binds: @escaping @Sendable (_ now: Int64) -> [SQLValue] = { _ in [] }
    ) {
        (self.name, self.summary, self.offenders, self.binds) = (name, summary, offenders, binds)
    }

    /// Every check, in the order an audit runs them.
    package static let all: [LedgerAuditCheck] =
        bookkeeping + [
            topUpsHaveEntries, fundingsHaveEntries, providerFundingsHaveEntries, transfersHaveEntries,
            transfersHaveWalletLines, orderPaymentsHaveEntries, walletOrdersHaveLines, refundsWithinOrders,
            refundsHaveEntries,
            reversalsUndoOriginals, entriesHaveOwners, noStalePendingTopUps, idempotencyTransactions,
            idempotencyResources, spendingDaysMatch,
        ]

    /// The checks that read only accounts and postings: for a ledger written without the business
    /// objects its entries would belong to (the repositories' own tests).
    package static let bookkeeping: [LedgerAuditCheck] = [entriesBalanced, balancesMatchPostings, noNegativeBalances]

    static let entriesBalanced = LedgerAuditCheck(
        "entries_balanced", "every ledger entry has two or more postings and they sum to zero",
        """
        SELECT l.id AS id FROM ledger_transactions l LEFT JOIN postings p ON p.ledger_transaction_id = l.id
        GROUP BY l.id HAVING COUNT(p.id) < 2 OR COALESCE(SUM(p.amount), 0) <> 0
        """)

    // System accounts keep no cached balance (their balance is the sum of their postings).
    static let balancesMatchPostings = LedgerAuditCheck(
        "balances_match_postings", "every user account's cached balance equals the sum of its postings",
        """
        SELECT a.id AS id FROM accounts a
        LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM postings GROUP BY account_id) s ON s.account_id = a.id
        WHERE a.user_id IS NOT NULL AND a.balance <> COALESCE(s.total, 0)
        """)

    static let noNegativeBalances = LedgerAuditCheck(
        "no_negative_balances",
        "no user account is below zero or allowed to go there, but a seller's receivable, which is never above zero",
        """
        SELECT id FROM accounts WHERE user_id IS NOT NULL AND (
            (kind <> 'receivable' AND (balance < 0 OR may_go_negative <> 0))
            OR (kind = 'receivable' AND (balance > 0 OR may_go_negative <> 1)))
        """)

    // A top-up's user pays its amount in the debit (from wallet and cashback), earns its
    // `cashback_earned` once completed, and gets the amount back if it failed.
    static let topUpsHaveEntries = LedgerAuditCheck(
        "top_ups_have_entries",
        "every top-up has exactly one debit of its amount, its cashback if completed with cashback, its reversal if failed",
        """
        WITH \(userPostings("charged", kinds: ["topup", "cashback", "topup_reversal"]))
        SELECT w.id AS id FROM wallet_transactions w
        LEFT JOIN (
            SELECT reference, SUM(CASE WHEN kind = 'topup' THEN 1 ELSE 0 END) AS debits,
                SUM(CASE WHEN kind = 'cashback' THEN 1 ELSE 0 END) AS cashbacks,
                SUM(CASE WHEN kind = 'topup_reversal' THEN 1 ELSE 0 END) AS reversals
            FROM ledger_transactions WHERE kind IN ('topup', 'cashback', 'topup_reversal') GROUP BY reference
        ) e ON e.reference = w.id
        LEFT JOIN charged c ON c.reference = w.id AND c.user_id = w.user_id
        WHERE w.type = 'topup' AND (
            COALESCE(e.debits, 0) <> 1
            OR COALESCE(e.cashbacks, 0) <> CASE WHEN w.status = 'completed' AND w.cashback_earned > 0 THEN 1 ELSE 0 END
            OR COALESCE(e.reversals, 0) <> CASE WHEN w.status = 'failed' THEN 1 ELSE 0 END
            OR COALESCE(c.topup, 0) <> -w.amount
            OR COALESCE(c.cashback, 0) <> CASE WHEN w.status = 'completed' THEN w.cashback_earned ELSE 0 END
            OR COALESCE(c.topup_reversal, 0) <> CASE WHEN w.status = 'failed' THEN w.amount ELSE 0 END)
        """)

    static let fundingsHaveEntries = LedgerAuditCheck(
        "fundings_have_entries",
        "every operator funding has exactly one funding entry, crediting its user exactly its amount",
        """
        WITH \(userPostings("credited", kinds: ["funding"]))
        SELECT w.id AS id FROM wallet_transactions w
        LEFT JOIN (SELECT reference, COUNT(*) AS n FROM ledger_transactions WHERE kind = 'funding' GROUP BY reference) e
            ON e.reference = w.id
        LEFT JOIN credited c ON c.reference = w.id AND c.user_id = w.user_id
        WHERE w.type = 'funding' AND NOT EXISTS (SELECT 1 FROM wallet_fundings f WHERE f.id = w.id)
            AND (COALESCE(e.n, 0) <> 1 OR COALESCE(c.funding, 0) <> w.amount)
        """)

    // Money the provider collected reaches the wallet once, when the intent succeeded, and the
    // history row says the same as the funding.
    static let providerFundingsHaveEntries = LedgerAuditCheck(
        "provider_fundings_have_entries",
        "every funding through the provider has one wallet_funding entry crediting its wallet its amount if it succeeded, none otherwise, and a history row in step",
        """
        WITH \(userPostings("credited", kinds: ["wallet_funding"], accountKind: "wallet"))
        SELECT f.id AS id FROM wallet_fundings f
        LEFT JOIN (SELECT reference, COUNT(*) AS n FROM ledger_transactions WHERE kind = 'wallet_funding' GROUP BY reference) e
            ON e.reference = f.id
        LEFT JOIN credited c ON c.reference = f.id AND c.user_id = f.user_id
        LEFT JOIN wallet_transactions w ON w.id = f.id
        WHERE COALESCE(e.n, 0) <> CASE WHEN f.status = 'succeeded' THEN 1 ELSE 0 END
            OR COALESCE(c.wallet_funding, 0) <> CASE WHEN f.status = 'succeeded' THEN f.amount ELSE 0 END
            OR w.id IS NULL OR w.user_id <> f.user_id OR w.type <> 'funding' OR w.amount <> f.amount
            OR w.currency <> f.currency
            OR w.status <> CASE f.status WHEN 'pending' THEN 'pending' WHEN 'succeeded' THEN 'completed' ELSE 'failed' END
        """)

    // The payer pays the amount and the fees; the payee receives the amount.
    static let transfersHaveEntries = LedgerAuditCheck(
        "transfers_have_entries",
        "every successful transfer has exactly one transfer entry, taking its amount and fees from the payer and giving its amount to the payee",
        """
        WITH \(userPostings("moved", kinds: ["transfer"]))
        SELECT t.id AS id FROM transfers t
        LEFT JOIN (SELECT reference, COUNT(*) AS n FROM ledger_transactions WHERE kind = 'transfer' GROUP BY reference) e
            ON e.reference = t.id
        LEFT JOIN moved payer_side ON payer_side.reference = t.id AND payer_side.user_id = t.payer_id
        LEFT JOIN moved payee_side ON payee_side.reference = t.id AND payee_side.user_id = t.payee_id
        WHERE t.status = 'SUCCESS' AND (
            COALESCE(e.n, 0) <> 1
            OR COALESCE(payer_side.transfer, 0) <> -(t.amount + COALESCE(t.total_fees, 0))
            OR COALESCE(payee_side.transfer, 0) <> t.amount)
        """)

    // A successful transfer's two history lines (`wallet_transactions`, `external_reference` the
    // transfer): the payer's `transfer_out` of what left their wallet, the payee's `transfer_in` of
    // what reached theirs, each equal to that user's postings in the transfer's entry; and no such
    // line for a transfer that did not succeed.
    static let transfersHaveWalletLines = LedgerAuditCheck(
        "transfers_have_wallet_lines",
        "every successful transfer has one transfer_out line of its payer and one transfer_in line of its payee, matching their postings",
        """
        WITH \(userPostings("moved", kinds: ["transfer"])),
        lines AS (
            SELECT external_reference,
                SUM(CASE WHEN type = 'transfer_out' THEN 1 ELSE 0 END) AS outs,
                SUM(CASE WHEN type = 'transfer_in' THEN 1 ELSE 0 END) AS ins,
                SUM(CASE WHEN type = 'transfer_out' THEN amount ELSE 0 END) AS paid,
                SUM(CASE WHEN type = 'transfer_in' THEN amount ELSE 0 END) AS received,
                MAX(CASE WHEN type = 'transfer_out' THEN user_id END) AS payer,
                MAX(CASE WHEN type = 'transfer_in' THEN user_id END) AS payee
            FROM wallet_transactions WHERE type IN ('transfer_out', 'transfer_in') GROUP BY external_reference)
        SELECT t.id AS id FROM transfers t
        LEFT JOIN lines w ON w.external_reference = t.id
        LEFT JOIN moved payer_side ON payer_side.reference = t.id AND payer_side.user_id = t.payer_id
        LEFT JOIN moved payee_side ON payee_side.reference = t.id AND payee_side.user_id = t.payee_id
        WHERE t.status = 'SUCCESS' AND (
            COALESCE(w.outs, 0) <> 1 OR COALESCE(w.ins, 0) <> 1
            OR COALESCE(w.payer, '') <> t.payer_id OR COALESCE(w.payee, '') <> COALESCE(t.payee_id, '')
            OR -COALESCE(payer_side.transfer, 0) <> w.paid OR COALESCE(payee_side.transfer, 0) <> w.received)
        UNION ALL
        SELECT w.id AS id FROM wallet_transactions w LEFT JOIN transfers t ON t.id = w.external_reference
        WHERE w.type IN ('transfer_out', 'transfer_in') AND COALESCE(t.status, '') <> 'SUCCESS'
        """)

    // The seller's escrow holds the price and shipping from the payment until the release moves
    // on what refunds left (the payment-method fee is the marketplace's): net of its refunds'
    // escrow postings, an order's escrow is its proceeds less its refunded total until it completes,
    // and zero after.
    static let orderPaymentsHaveEntries = LedgerAuditCheck(
        "order_payments_have_entries",
        "every paid order has exactly one payment entry holding its price and shipping in the seller's escrow, at most one release once completed, and its escrow net of refunds right",
        """
        WITH \(userPostings("held", kinds: ["order_payment"], accountKind: "escrow")),
        escrow AS (
            SELECT COALESCE(r.order_id, l.reference) AS order_id, a.user_id, SUM(p.amount) AS net
            FROM ledger_transactions l
            JOIN postings p ON p.ledger_transaction_id = l.id JOIN accounts a ON a.id = p.account_id
            LEFT JOIN order_refunds r ON r.id = l.reference
            WHERE l.kind IN ('order_payment', 'order_release', 'order_refund', 'order_refund_failed') AND a.kind = 'escrow'
            GROUP BY COALESCE(r.order_id, l.reference), a.user_id)
        SELECT o.id AS id FROM orders o
        LEFT JOIN (
            SELECT reference, SUM(CASE WHEN kind = 'order_payment' THEN 1 ELSE 0 END) AS payments,
                SUM(CASE WHEN kind = 'order_release' THEN 1 ELSE 0 END) AS releases
            FROM ledger_transactions WHERE kind IN ('order_payment', 'order_release') GROUP BY reference
        ) e ON e.reference = o.id
        LEFT JOIN held h ON h.reference = o.id AND h.user_id = o.seller_id
        LEFT JOIN escrow n ON n.order_id = o.id AND n.user_id = o.seller_id
        WHERE o.status IN ('PAID', 'SHIPPED', 'COMPLETED') AND (
            COALESCE(e.payments, 0) <> 1
            OR COALESCE(e.releases, 0) > CASE WHEN o.status = 'COMPLETED' THEN 1 ELSE 0 END
            OR COALESCE(h.order_payment, 0) <> o.subtotal + o.shipping
            OR COALESCE(n.net, 0) <> CASE WHEN o.status = 'COMPLETED' THEN 0 ELSE o.subtotal + o.shipping - o.refunded END)
        """)

    // An order paid from the wallet: its payment entry took the total from its buyer's wallet, and
    // the buyer's history has one `order_payment` line of it and an `order_refund` line per refund
    // that went back (`external_reference` the order); no other order has such lines.
    static let walletOrdersHaveLines = LedgerAuditCheck(
        "wallet_orders_have_lines",
        "every order paid from the wallet took its total from its buyer's wallet, with one order_payment line of it and an order_refund line per refund back, and no other order has such lines",
        """
        WITH \(userPostings("paid", kinds: ["order_payment"], accountKind: "wallet")),
        lines AS (
            SELECT external_reference,
                SUM(CASE WHEN type = 'order_payment' THEN 1 ELSE 0 END) AS payments,
                SUM(CASE WHEN type = 'order_payment' THEN amount ELSE 0 END) AS spent,
                MAX(CASE WHEN type = 'order_payment' THEN user_id END) AS payer,
                SUM(CASE WHEN type = 'order_refund' THEN 1 ELSE 0 END) AS refunds,
                SUM(CASE WHEN type = 'order_refund' THEN amount ELSE 0 END) AS returned
            FROM wallet_transactions WHERE type IN ('order_payment', 'order_refund') GROUP BY external_reference),
        back AS (
            SELECT order_id, COUNT(*) AS refunds, SUM(amount) AS returned FROM order_refunds
            WHERE status = 'succeeded' GROUP BY order_id)
        SELECT o.id AS id FROM orders o
        LEFT JOIN lines w ON w.external_reference = o.id
        LEFT JOIN paid p ON p.reference = o.id AND p.user_id = o.buyer_id
        LEFT JOIN back b ON b.order_id = o.id
        WHERE o.payment_method = 'wallet' AND o.status IN ('PAID', 'SHIPPED', 'COMPLETED') AND (
            COALESCE(w.payments, 0) <> 1 OR COALESCE(w.payer, '') <> o.buyer_id OR COALESCE(w.spent, 0) <> o.total
            OR COALESCE(p.order_payment, 0) <> -o.total
            OR COALESCE(w.refunds, 0) <> COALESCE(b.refunds, 0) OR COALESCE(w.returned, 0) <> COALESCE(b.returned, 0))
        UNION ALL
        SELECT w.id AS id FROM wallet_transactions w LEFT JOIN orders o ON o.id = w.external_reference
        WHERE w.type IN ('order_payment', 'order_refund') AND (
            o.id IS NULL OR o.payment_method <> 'wallet' OR o.status NOT IN ('PAID', 'SHIPPED', 'COMPLETED')
            OR w.user_id <> o.buyer_id)
        """)

    // A reversal's entry is its original's, negated: per account the two sum to zero, so it never
    // moves more than the original did. Exactly one such entry per reversal, and its original exists.
    static let reversalsUndoOriginals = LedgerAuditCheck(
        "reversals_undo_originals",
        "every reversal has exactly one entry, the exact negation of its original transfer's or funding's entry",
        """
        WITH pairs AS (
            SELECT r.id AS reversal_id, l.kind, l.id AS entry_id FROM reversals r
            JOIN ledger_transactions l ON (l.reference = r.id AND l.kind = r.original_kind || '_reversal')
                OR (l.reference = r.original_id AND l.kind = r.original_kind))
        SELECT r.id AS id FROM reversals r
        LEFT JOIN (
            SELECT reversal_id, SUM(CASE WHEN kind IN ('transfer_reversal', 'funding_reversal') THEN 1 ELSE 0 END) AS undos,
                SUM(CASE WHEN kind IN ('transfer', 'funding') THEN 1 ELSE 0 END) AS originals
            FROM pairs GROUP BY reversal_id) n ON n.reversal_id = r.id
        WHERE COALESCE(n.undos, 0) <> 1 OR COALESCE(n.originals, 0) <> 1
        UNION ALL
        SELECT x.reversal_id AS id FROM pairs x JOIN postings p ON p.ledger_transaction_id = x.entry_id
        GROUP BY x.reversal_id, p.account_id HAVING SUM(p.amount) <> 0
        """)

    // An order's refunded total is the sum of its refunds that did not fail, never more than its
    // price and shipping; only a paid order has refunds.
    static let refundsWithinOrders = LedgerAuditCheck(
        "refunds_within_orders",
        "every order's refunded total is the sum of its pending and succeeded refunds, within its price and shipping, and only paid orders have refunds",
        """
        SELECT o.id AS id FROM orders o
        LEFT JOIN (
            SELECT order_id, SUM(CASE WHEN status <> 'failed' THEN amount ELSE 0 END) AS held, COUNT(*) AS n
            FROM order_refunds GROUP BY order_id) r ON r.order_id = o.id
        WHERE o.refunded <> COALESCE(r.held, 0) OR o.refunded > o.subtotal + o.shipping
            OR (COALESCE(r.n, 0) > 0 AND o.status NOT IN ('PAID', 'SHIPPED', 'COMPLETED'))
        """)

    // A refund takes its amount from the seller (escrow, payable, debt as it records) into refund
    // clearing; once settled, clearing pays the provider (succeeded) or the seller back (failed).
    static let refundsHaveEntries = LedgerAuditCheck(
        "refunds_have_entries",
        "every refund has exactly one entry taking its amount from its seller, and exactly one settling it once it succeeded or failed",
        """
        WITH \(userPostings("taken", kinds: ["order_refund", "order_refund_failed"])),
        entries AS (
            SELECT l.reference, SUM(CASE WHEN l.kind = 'order_refund' THEN 1 ELSE 0 END) AS takes,
                SUM(CASE WHEN l.kind = 'order_refund_settled' THEN 1 ELSE 0 END) AS settles,
                SUM(CASE WHEN l.kind = 'order_refund_failed' THEN 1 ELSE 0 END) AS fails
            FROM ledger_transactions l
            WHERE l.kind IN ('order_refund', 'order_refund_settled', 'order_refund_failed') GROUP BY l.reference),
        cleared AS (
            SELECT l.reference, SUM(CASE WHEN l.kind = 'order_refund' THEN p.amount ELSE 0 END) AS taken,
                SUM(CASE WHEN l.kind <> 'order_refund' THEN p.amount ELSE 0 END) AS given
            FROM ledger_transactions l JOIN postings p ON p.ledger_transaction_id = l.id
            WHERE l.kind IN ('order_refund', 'order_refund_settled', 'order_refund_failed')
                AND SUBSTR(p.account_id, 1, 20) = 'sys:refund_clearing:'
            GROUP BY l.reference)
        SELECT r.id AS id FROM order_refunds r JOIN orders o ON o.id = r.order_id
        LEFT JOIN entries e ON e.reference = r.id
        LEFT JOIN cleared c ON c.reference = r.id
        LEFT JOIN taken t ON t.reference = r.id AND t.user_id = o.seller_id
        WHERE COALESCE(e.takes, 0) <> 1
            OR COALESCE(e.settles, 0) <> CASE WHEN r.status = 'succeeded' THEN 1 ELSE 0 END
            OR COALESCE(e.fails, 0) <> CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END
            OR COALESCE(c.taken, 0) <> r.amount
            OR COALESCE(c.given, 0) <> CASE WHEN r.status = 'pending' THEN 0 ELSE -r.amount END
            OR COALESCE(t.order_refund, 0) <> -r.amount
            OR COALESCE(t.order_refund_failed, 0) <> CASE WHEN r.status = 'failed' THEN r.amount ELSE 0 END
        """)

    /// `name AS (…)`, for a `WITH`: per entry reference and user, what that user's accounts (only
    /// those of `accountKind`, if given) were posted in entries of each of `kinds`, one column per
    /// kind, named after it.
    private static func userPostings(_ name: String, kinds: [String], accountKind: String? = nil) -> String {
        let columns = kinds.map { "SUM(CASE WHEN l.kind = '\($0)' THEN p.amount ELSE 0 END) AS \($0)" }
        let accounts = accountKind.map { " AND a.kind = '\($0)'" } ?? ""
        return """
            \(name) AS (
                SELECT l.reference, a.user_id, \(columns.joined(separator: ", "))
                FROM ledger_transactions l
                JOIN postings p ON p.ledger_transaction_id = l.id JOIN accounts a ON a.id = p.account_id
                WHERE l.kind IN (\(kinds.map { "'\($0)'" }.joined(separator: ", "))) AND a.user_id IS NOT NULL\(accounts)
                GROUP BY l.reference, a.user_id)
            """
    }

    // The other direction: an entry of an unknown kind, or one whose business object is missing
    // or never reached the state that writes such an entry. (A missing object makes the condition
    // NULL, which COALESCE counts as not owned.)
    static let entriesHaveOwners = LedgerAuditCheck(
        "entries_have_owners", "every ledger entry belongs to a top-up, funding, transfer or order in the right state",
        """
        SELECT l.id AS id FROM ledger_transactions l
        LEFT JOIN wallet_transactions w ON w.id = l.reference
        LEFT JOIN transfers t ON t.id = l.reference
        LEFT JOIN orders o ON o.id = l.reference
        LEFT JOIN order_refunds r ON r.id = l.reference
        LEFT JOIN reversals v ON v.id = l.reference
        LEFT JOIN wallet_fundings f ON f.id = l.reference
        WHERE NOT COALESCE(
            (l.kind = 'topup' AND w.type = 'topup')
            OR (l.kind = 'cashback' AND w.type = 'topup' AND w.status = 'completed')
            OR (l.kind = 'topup_reversal' AND w.type = 'topup' AND w.status = 'failed')
            OR (l.kind = 'funding' AND w.type = 'funding' AND f.id IS NULL)
            OR (l.kind = 'wallet_funding' AND f.status = 'succeeded')
            OR (l.kind = 'transfer' AND t.status = 'SUCCESS')
            OR (l.kind = 'order_payment' AND o.status IN ('PAID', 'SHIPPED', 'COMPLETED'))
            OR (l.kind = 'order_release' AND o.status = 'COMPLETED')
            OR (l.kind = 'order_refund' AND r.id IS NOT NULL)
            OR (l.kind = 'order_refund_settled' AND r.status = 'succeeded')
            OR (l.kind = 'order_refund_failed' AND r.status = 'failed')
            OR (l.kind = v.original_kind || '_reversal'), false)
        """)

    static let noStalePendingTopUps = LedgerAuditCheck(
        "no_stale_pending_top_ups",
        "no top-up pending past the sweeper's horizon (\(PendingTopUpSweeper.settledWithinMillis / 1000) s)",
        "SELECT id FROM wallet_transactions WHERE type = 'topup' AND status = 'pending' AND created_at < $1",
        binds: { now in [.integer(now - PendingTopUpSweeper.settledWithinMillis)] })

    // A top-up's key is linked to its wallet transaction in the debit's commit and done in the
    // settlement's, so: linked to the user's own transaction, done exactly when it is settled; and a
    // done key without a transfer is a top-up's, so it must be linked; except keys without an owner
    // instance (before migration 9), which versions that completed keys unlinked may have written.
    // Claim ids name the keys (the keys themselves are the clients').
    static let idempotencyTransactions = LedgerAuditCheck(
        "idempotency_transactions",
        "every linked key's wallet transaction exists, is its user's, and is settled exactly when the key is done",
        """
        SELECT k.claim_id AS id FROM idempotency_keys k LEFT JOIN wallet_transactions w ON w.id = k.transaction_id
        WHERE (k.transaction_id IS NULL AND k.resource_id IS NULL AND k.state = 'done' AND k.owner_instance IS NOT NULL)
            OR (k.transaction_id IS NOT NULL AND (w.id IS NULL OR w.user_id <> k.user_id
                OR (CASE WHEN k.state = 'done' THEN 1 ELSE 0 END) <> (CASE WHEN w.status = 'pending' THEN 0 ELSE 1 END)))
        """)

    // The days the spending limits read (kept by triggers on wallet_transactions) against the rows.
    static let spendingDaysMatch = LedgerAuditCheck(
        "spending_days_match",
        "each user's paid-out sum per currency and UTC day, which the spending limits read, is the sum of the day's counted payments",
        """
        SELECT user_id || ' ' || currency || ' ' || CAST(day AS TEXT) AS id FROM (
            SELECT user_id, currency, day, amount FROM spending_days
            UNION ALL
            SELECT user_id, currency, created_at / \(LimitsRepository.dayMilliseconds) AS day, -amount AS amount
            FROM wallet_transactions WHERE \(LimitsRepository.counted)
        ) AS both_sides
        GROUP BY user_id, currency, day HAVING SUM(amount) <> 0
        """)

    static let idempotencyResources = LedgerAuditCheck(
        "idempotency_resources",
        "every resource key is done and names its user's transfer, funding or refund, or an operator's funding made with it",
        """
        SELECT k.claim_id AS id FROM idempotency_keys k LEFT JOIN transfers t ON t.id = k.resource_id
        LEFT JOIN wallet_fundings f ON f.id = k.resource_id
        LEFT JOIN order_refunds r ON r.id = k.resource_id
        LEFT JOIN wallet_transactions w ON w.id = k.resource_id AND w.type = 'funding'
            AND w.external_reference = 'console:' || k.user_id || ':' || k.idempotency_key
        WHERE k.resource_id IS NOT NULL AND (k.state <> 'done'
            OR COALESCE(t.payer_id, f.user_id, r.requested_by, CASE WHEN w.id IS NOT NULL THEN k.user_id END, '')
                <> k.user_id)
        """)
}
