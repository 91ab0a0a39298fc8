import CountersignCore
import CountersignStore

/// Who was on each side of a settled transfer, and what the payer wrote; both sides may see it.
package struct TransferParties: Sendable, Equatable {
    package var payerName: String
    package var payeeName: String?
    package var note: String?
    package var totalFees: Int64?
}

/// Wallet transactions, newest first.
package struct WalletTransactionRepository: Sendable {
    let sql: any SQLExecutor

    package func insert(_ t: WalletTransaction) async throws {
        let row = Self.row(t)
        try await sql.execute(row.insert(firstBind: 1), row.values)
    }

    /// The row of `t`, for `insert` or to be written with its ledger entry (`LedgerRepository.post`).
    static func row(_ t: WalletTransaction) -> LedgerRepository.Row {
        LedgerRepository.Row(
            table: "wallet_transactions",
            columns: [
                "id", "user_id", "type", "status", "amount", "currency", "product_code", "recipient_phone",
                "supplier_slug", "authorized_by", "cashback_used", "cashback_earned", "external_reference",
                "idempotency_key", "failure_code", "created_at", "updated_at",
            ],
            values: [
                .text(t.id), .text(t.userId), .text(t.type.rawValue), .text(t.status.rawValue), .integer(t.amount),
                .text(t.currency),
                .text(t.productCode), .text(t.recipientPhone), .text(t.supplierSlug), .text(t.authorizedBy),
                .integer(t.cashbackUsed), .integer(t.cashbackEarned), .text(t.externalReference),
                .text(t.idempotencyKey), .text(t.failureCode),
                .integer(t.createdAt), .integer(t.updatedAt),
            ])
    }

    /// The parties of the transfers with these ids, by id (a page of history at most).
    package func transfers(ids: [String]) async throws -> [String: TransferParties] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = ids.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let rows = try await sql.query(
            """
            SELECT t.id, t.note, t.total_fees, payer.name AS payer_name, payee.name AS payee_name
            FROM transfers t JOIN users payer ON payer.id = t.payer_id LEFT JOIN users payee ON payee.id = t.payee_id
            WHERE t.id IN (\(placeholders))
            """,
            ids.map { .text($0) })
        var parties: [String: TransferParties] = [:]
        for row in rows {
            parties[try row.string("id")] = TransferParties(
                payerName: try row.string("payer_name"), payeeName: try row.optionalString("payee_name"),
                note: try row.optionalString("note"), totalFees: try row.optionalInt("total_fees"))
        }
        return parties
    }

    /// The parties of the marketplace orders with these ids, by id: the buyer as payer, the seller
    /// as payee, and the product's title as the note.
    package func orders(ids: [String]) async throws -> [String: TransferParties] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = ids.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let rows = try await sql.query(
            """
            SELECT o.id, p.title, buyer.name AS buyer_name, seller.name AS seller_name
            FROM orders o JOIN products p ON p.id = o.product_id JOIN users buyer ON buyer.id = o.buyer_id
            JOIN users seller ON seller.id = o.seller_id
            WHERE o.id IN (\(placeholders))
            """,
            ids.map { .text($0) })
        var parties: [String: TransferParties] = [:]
        for row in rows {
            parties[try row.string("id")] = TransferParties(
                payerName: try row.string("buyer_name"), payeeName: try row.string("seller_name"),
                note: try row.string("title"), totalFees: nil)
        }
        return parties
    }

    /// Moves a pending transaction to a final status; returns false if it was not pending. A status
    /// the machine does not move `pending` to throws `ForbiddenMove`.
    package func finish(
        id: String, status: WalletTransactionStatus, cashbackEarned: Int64, externalReference: String?,
        failureCode: String?, now: Int64
    ) async throws -> Bool {
        try await finish(
            id: id, status: status, cashbackEarned: cashbackEarned, externalReference: externalReference,
            failureCode: failureCode, now: now, balanceOf: nil) != nil
    }

    /// `finish`, in the same statement reading the balance of the user account `accountId` (for an
    /// answer that shows it, where nothing later in the transaction moves that account) and whether
    /// any webhook endpoint is live (for the outbox); nil if the transaction was not pending.
    package func finish(
        id: String, status: WalletTransactionStatus, cashbackEarned: Int64, externalReference: String?,
        failureCode: String?, now: Int64, balanceOf accountId: String?
    ) async throws -> (balance: Int64, anyEndpoint: Bool)? {
        let move = try WalletTransactionStatus.pending.boundMove(to: status)
        let row = try await sql.first(
            """
            UPDATE wallet_transactions SET status = $2, cashback_earned = $3, external_reference = $4, failure_code = $5, updated_at = $6
            WHERE id = $1 AND status = $7
            RETURNING CAST(COALESCE((SELECT balance FROM accounts WHERE id = $8), 0) AS BIGINT) AS balance,
                \(WebhookEndpointRepository.anyLive) AS endpoints
            """,
            [
                .text(id), move.to, .integer(cashbackEarned), .text(externalReference), .text(failureCode),
                .integer(now), move.from, .text(accountId),
            ]
        )
        guard let row else { return nil }
        return (try row.int("balance"), try row.int("endpoints") > 0)
    }

    /// An idempotency key's stored answer with the payer's balance left out, for the statement
    /// that reads the balance to fill it in: `before`, the balance in decimal, `after`.
    package struct AnswerAroundBalance: Sendable {
        package let userId: String
        package let key: String
        package let before: String
        package let after: String

        package init(userId: String, key: String, before: String, after: String) {
            (self.userId, self.key, self.before, self.after) = (userId, key, before, after)
        }
    }

    /// A delivered top-up settled in one PostgreSQL statement, which commits on its own: the
    /// status, the `cashback` entry (a credit to one user account), the idempotency key's `answer`,
    /// its balance the user account `accountId`'s (as `finish` reads it), and `event` in the
    /// outbox for the endpoints subscribed to it (as `WebhookOutbox.record`). Each part is written
    /// only with the status. Returns that balance; nil, with nothing written, when the transaction
    /// is not pending, the cashback's account is missing, or a webhook endpoint is live and there
    /// is no `event` or more than `maxEventEndpoints` are subscribed to it: the settlement's
    /// transaction then says why, or writes the outbox.
    package func settleDelivered(
        id: String, cashbackEarned: Int64, externalReference: String, now: Int64, balanceOf accountId: String,
        cashback: LedgerEntry?, answer: AnswerAroundBalance?, event: WebhookOutbox.Event? = nil
    ) async throws -> Int64? {
        let move = try WalletTransactionStatus.pending.boundMove(to: .completed)
        var binds: [SQLValue] = [
            .text(id), move.to, .integer(cashbackEarned), .text(externalReference), .integer(now), move.from,
            .text(accountId),
        ]
        let credited = cashback?.postings.filter { !$0.accountId.hasPrefix("sys:") } ?? []
        guard credited.count <= 1, credited.allSatisfy({ $0.amount > 0 }) else { return nil }
        binds.append(.text(credited.first?.accountId))
        var parts: [String] = []
        var outbox = "\(WebhookEndpointRepository.anyLive) = 0"
        var recorded: String?
        if let event {
            let recording = WebhookEventRepository.recordingParts(
                event, maxEndpoints: Self.maxEventEndpoints, after: "finished", binds: &binds)
            parts.append(recording.subscribed)
            outbox = recording.fits
            recorded = recording.recorded
        }
        parts.append(
            """
            finished AS (
                UPDATE wallet_transactions SET status = $2, cashback_earned = $3, external_reference = $4, failure_code = NULL, updated_at = $5
                WHERE id = $1 AND status = $6 AND \(outbox)
                  AND (CAST($8 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM accounts WHERE id = $8))
                RETURNING CAST(COALESCE((SELECT balance FROM accounts WHERE id = $7), 0) AS BIGINT) AS balance
            )
            """)
        if let recorded { parts.append(recorded) }
        if let cashback {
            parts.append(
                LedgerRepository.entryStatements(
                    cashback, id: Identifier.make("ltx"), userPosting: credited.first, now: now, binds: &binds,
                    after: "finished"))
        }
        if let answer {
            let first = binds.count + 1
            binds += [.text(answer.userId), .text(answer.key), .text(answer.before), .text(answer.after)]
            parts.append(
                """
                answered AS (
                    UPDATE idempotency_keys SET state = 'done', response_status = 200,
                        response_body = $\(first + 2) || CAST((SELECT balance FROM finished) AS TEXT) || $\(first + 3)
                    WHERE user_id = $\(first) AND idempotency_key = $\(first + 1) AND EXISTS (SELECT 1 FROM finished)
                    RETURNING 1
                )
                """)
        }
        let row = try await sql.first(
            """
            WITH \(parts.joined(separator: ",\n"))
            SELECT (SELECT COUNT(*) FROM finished) AS finished, COALESCE((SELECT balance FROM finished), 0) AS balance
            """, binds)
        guard let row, try row.int("finished") == 1 else { return nil }
        return try row.int("balance")
    }

    /// The most endpoints a settlement's one statement records an event for (`settleDelivered`);
    /// with more subscribed, the settlement's transaction records it.
    static let maxEventEndpoints = 4

    package func find(id: String) async throws -> WalletTransaction? {
        try await sql.first("SELECT * FROM wallet_transactions WHERE id = $1", [.text(id)]).map(Self.transaction(from:))
    }

    package func find(type: WalletTransactionType, externalReference: String) async throws
        -> WalletTransaction?
    {
        try await sql.first(
            "SELECT * FROM wallet_transactions WHERE type = $1 AND external_reference = $2",
            [.text(type.rawValue), .text(externalReference)]
        ).map(Self.transaction(from:))
    }

    /// A page of the user's transactions older than `before` (created_at, id), newest first.
    /// With `currency`, only that currency's.
    package func list(
        userId: String, before: (Int64, String)?, currency: String?, limit: Int
    ) async throws -> [WalletTransaction] {
        // A NULL parameter means "any": one statement for every combination of filters.
        let (createdAt, id) = before ?? (Int64.max, "")
        return try await sql.query(
            """
            SELECT * FROM wallet_transactions WHERE user_id = $1
              AND ($2 = 0 OR created_at < $3 OR (created_at = $3 AND id < $4))
              AND ($5 = '' OR currency = $5)
            ORDER BY created_at DESC, id DESC LIMIT $6
            """,
            [
                .text(userId), .int(before == nil ? 0 : 1), .integer(createdAt), .text(id), .text(currency ?? ""),
                .int(limit),
            ]
        ).map(Self.transaction(from:))
    }

    /// Pending transactions for recovery after a crash: those created before `olderThan`, and younger
    /// ones whose idempotency claim belongs to an instance other than `except` that is known to be gone
    /// (retired at a start-up, or stopped): the request that debited them died with its process. A
    /// lapsed lease alone is not enough here, since settling races the supplier call of a process
    /// that may only be stalled.
    package func pending(olderThan: Int64, orOrphanedExcept instance: String) async throws
        -> [WalletTransaction]
    {
        // The status is written out, not bound: only a literal lets the engines' planners use the
        // partial index of pending rows (`wallet_transactions_pending`) instead of reading every top-up.
        try await sql.query(
            """
            SELECT * FROM wallet_transactions w WHERE w.status = 'pending' AND w.type = $3 AND (w.created_at < $1 OR EXISTS (
                SELECT 1 FROM idempotency_keys k
                WHERE k.user_id = w.user_id AND k.idempotency_key = w.idempotency_key AND k.transaction_id = w.id
                  AND k.owner_instance IS NOT NULL AND k.owner_instance <> $2
                  AND NOT EXISTS (SELECT 1 FROM server_instances i WHERE i.id = k.owner_instance)))
            ORDER BY w.created_at
            """,
            [.integer(olderThan), .text(instance), .text(WalletTransactionType.topup.rawValue)]
        ).map(Self.transaction(from:))
    }

    static func transaction(from row: SQLRow) throws -> WalletTransaction {
        guard let type = WalletTransactionType(rawValue: try row.string("type")) else {
            throw DatabaseError.decoding(column: "type")
        }
        guard let status = WalletTransactionStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        return WalletTransaction(
            id: try row.string("id"), userId: try row.string("user_id"), type: type, status: status,
            amount: try row.int("amount"), currency: try row.string("currency"),
            productCode: try row.optionalString("product_code"),
            recipientPhone: try row.optionalString("recipient_phone"),
            supplierSlug: try row.optionalString("supplier_slug"),
            authorizedBy: try row.optionalString("authorized_by"), cashbackUsed: try row.int("cashback_used"),
            cashbackEarned: try row.int("cashback_earned"),
            externalReference: try row.optionalString("external_reference"),
            idempotencyKey: try row.optionalString("idempotency_key"),
            failureCode: try row.optionalString("failure_code"), createdAt: try row.int("created_at"),
            updatedAt: try row.int("updated_at")
        )
    }
}

extension SQLExecutor {
    /// `WalletTransactionRepository` on this connection or transaction.
    package var walletTransactions: WalletTransactionRepository { WalletTransactionRepository(sql: self) }
}
