import CountersignAPI
import CountersignCore

extension TopUpService {
    /// Spends the token (if any), debits the wallet (cashback first when asked) into supplier
    /// clearing, and records a pending transaction — all in one database transaction, so either
    /// everything is written or nothing is.
    /// `clearFailures`: the user has failed payment authentications to forget (a success resets them).
    /// `idempotency`: the request's key, claimed first and linked (in the claim's statement) to the
    /// new transaction, which the same commit writes; `IdempotencyKeyTaken` (nothing written) if another request holds it.
    func debit(
        userId: String, intent: PaymentIntent, useCashback: Bool, authorization: Authorization,
        clearFailures: Bool = true, idempotency: IdempotencyTicket? = nil
    ) async throws -> WalletTransaction {
        let now = clock.nowMillis()
        let walletId = LedgerRepository.accountId(userId: userId, kind: .wallet, currency: intent.currency)
        let cashbackId = LedgerRepository.accountId(userId: userId, kind: .cashback, currency: intent.currency)
        let transactionId = Identifier.make("tx")
        do {
            return try await database.transaction { sql in
                // The key claimed first, then the factor spent and the wallet and cashback locked:
                // what the limits count holds until the commit. They are read with the debit.
                let limitsCheck = try await authorizer.commit(
                    authorization, userId: userId, intent: intent, locking: [walletId, cashbackId],
                    claiming: idempotency.map {
                        LinkedClaim(userId: userId, ticket: $0, transactionId: transactionId, now: now)
                    }, now: now, on: sql)
                var cashbackUsed: Int64 = 0
                if useCashback {
                    // Locked above, with the wallet: the balance read holds until the commit.
                    cashbackUsed = min(try await sql.ledger.balance(accountId: cashbackId), intent.amount)
                }
                let transaction = WalletTransaction(
                    id: transactionId, userId: userId, type: .topup, status: .pending, amount: intent.amount,
                    currency: intent.currency, productCode: intent.productCode, recipientPhone: intent.recipientPhone,
                    supplierSlug: intent.supplierSlug, authorizedBy: authorization.label, cashbackUsed: cashbackUsed,
                    cashbackEarned: 0, externalReference: nil, idempotencyKey: idempotency?.key, failureCode: nil,
                    createdAt: now, updatedAt: now
                )
                var postings = [
                    Posting(accountId: SystemAccount.supplierClearing(intent.currency), amount: intent.amount)
                ]
                if cashbackUsed > 0 { postings.append(Posting(accountId: cashbackId, amount: -cashbackUsed)) }
                if intent.amount > cashbackUsed {
                    postings.append(Posting(accountId: walletId, amount: -(intent.amount - cashbackUsed)))
                }
                try await sql.ledger.post(
                    LedgerEntry(kind: .topup, reference: transaction.id, postings: postings), now: now,
                    with: WalletTransactionRepository.row(transaction), reading: limitsCheck)
                if clearFailures { try await sql.users.resetPaymentFailures(userId: userId) }
                return transaction
            }
        } catch LedgerError.insufficientFunds {
            throw APIError(.insufficientFunds, "The wallet balance is too low for this top-up.")
        }
    }

    /// Completes (cashback credited) or fails (debit reversed) a pending top-up, in one transaction.
    /// The answer comes back encoded too: the bytes sent are the ones stored for replays.
    func settle(_ pending: WalletTransaction, outcome: AirtimeOutcome) async throws -> SettledTopUp {
        let now = clock.nowMillis()
        let currency = pending.currency
        let walletId = LedgerRepository.accountId(userId: pending.userId, kind: .wallet, currency: currency)
        let cashbackId = LedgerRepository.accountId(userId: pending.userId, kind: .cashback, currency: currency)
        let clearing = SystemAccount.supplierClearing(currency)
        if database.engine == .postgres, case .delivered(let reference) = outcome,
            let settled = try await settleInOneStatement(
                pending, reference: reference, walletId: walletId, cashbackId: cashbackId, now: now)
        {
            return settled
        }
        return try await database.transaction { sql in
            var finished = pending
            finished.updatedAt = now
            let balance: Int64
            var anyEndpoint = true
            switch outcome {
            case .delivered(let reference):
                let earned = TopUpLimits.cashback(for: pending.amount)
                // The wallet does not move again here: its balance is read with the status.
                guard
                    let finish = try await sql.walletTransactions.finish(
                        id: pending.id, status: .completed, cashbackEarned: earned, externalReference: reference,
                        failureCode: nil, now: now, balanceOf: walletId)
                else {
                    throw APIError(.alreadySettled, "This top-up was settled already.")
                }
                (balance, anyEndpoint) = finish
                if earned > 0 {
                    try await sql.ledger.post(
                        .transfer(
                            kind: .cashback, reference: pending.id, amount: earned,
                            from: SystemAccount.cashbackExpense(currency), to: cashbackId), now: now)
                }
                try finished.status.move(to: .completed)
                finished.cashbackEarned = earned
                finished.externalReference = reference
            case .failed(let code, _):
                guard
                    try await sql.walletTransactions.finish(
                        id: pending.id, status: .failed, cashbackEarned: 0, externalReference: nil, failureCode: code,
                        now: now)
                else {
                    throw APIError(.alreadySettled, "This top-up was settled already.")
                }
                var postings = [Posting(accountId: clearing, amount: -pending.amount)]
                if pending.cashbackUsed > 0 {
                    postings.append(Posting(accountId: cashbackId, amount: pending.cashbackUsed))
                }
                if pending.amount > pending.cashbackUsed {
                    postings.append(Posting(accountId: walletId, amount: pending.amount - pending.cashbackUsed))
                }
                try await sql.ledger.post(
                    LedgerEntry(kind: .topupReversal, reference: pending.id, postings: postings), now: now)
                try finished.status.move(to: .failed)
                finished.failureCode = code
                balance = try await sql.ledger.balance(accountId: walletId)
            }
            // With no endpoint live when the status changed, the outbox does not read them again.
            try await WebhookOutbox().recordWalletTransaction(finished, on: sql, anyEndpoint: anyEndpoint)
            let response = Self.response(finished, balance: balance, outcome: outcome)
            let json = TopUpResponse.encodedForReplay(response)
            // The replay answer is stored with the money, so a retry after a crash replays it.
            if let key = pending.idempotencyKey {
                try await sql.idempotency.complete(userId: pending.userId, key: key, status: 200, body: json)
            }
            return SettledTopUp(response: response, json: json)
        }
    }

    /// `settle` for a delivered top-up on PostgreSQL, in one statement that commits on its own
    /// (`WalletTransactionRepository.settleDelivered`): the status, the cashback entry, the replay
    /// answer, whose balance the statement reads and fills in, and the outbox's event. Nil, with
    /// nothing written, where the settlement needs its transaction: the top-up not pending, its
    /// cashback account missing, or more webhook endpoints subscribed than the statement records for.
    private func settleInOneStatement(
        _ pending: WalletTransaction, reference: String, walletId: String, cashbackId: String, now: Int64
    ) async throws -> SettledTopUp? {
        let outcome = AirtimeOutcome.delivered(reference: reference)
        let earned = TopUpLimits.cashback(for: pending.amount)
        var finished = pending
        try finished.status.move(to: .completed)
        finished.updatedAt = now
        finished.cashbackEarned = earned
        finished.externalReference = reference
        guard let (before, after) = try Self.replayHalves(finished, outcome: outcome) else { return nil }
        let answer = pending.idempotencyKey.map {
            WalletTransactionRepository.AnswerAroundBalance(
                userId: pending.userId, key: $0, before: before, after: after)
        }
        let cashback: LedgerEntry? =
            earned > 0
            ? try .transfer(
                kind: .cashback, reference: pending.id, amount: earned,
                from: SystemAccount.cashbackExpense(pending.currency), to: cashbackId)
            : nil
        let event = try WebhookOutbox().walletTransactionEvent(finished)
        guard
            let balance = try await database.single({ sql in
                try await sql.walletTransactions.settleDelivered(
                    id: pending.id, cashbackEarned: earned, externalReference: reference, now: now,
                    balanceOf: walletId, cashback: cashback, answer: answer,
                    event: event)
            })
        else { return nil }
        return SettledTopUp(
            response: Self.response(finished, balance: balance, outcome: outcome),
            json: before + String(balance) + after)
    }

    /// The replay answer for `finished`, cut where its balance goes: the answer with any balance is
    /// `before`, the balance in decimal, `after`. The answer is encoded once, with a balance no wallet
    /// has, so the halves and the answer sent come from one encoding.
    static func replayHalves(_ finished: WalletTransaction, outcome: AirtimeOutcome) throws -> (
        before: String, after: String
    )? {
        let marker = "\"balance\":\(Int64.min)"
        let json = TopUpResponse.encodedForReplay(Self.response(finished, balance: .min, outcome: outcome))
        guard let cut = json.range(of: marker) else { return nil }
        return (String(json[..<cut.lowerBound]) + "\"balance\":", String(json[cut.upperBound...]))
    }

    static func response(_ finished: WalletTransaction, balance: Int64, outcome: AirtimeOutcome) -> TopUpResponse {
        let data = TopUpResponse.Data(
            transactionId: finished.id, status: finished.status.rawValue, amount: finished.amount, balance: balance,
            timestamp: WallClock.iso8601(millis: finished.createdAt),
            cashbackUsed: finished.cashbackUsed, cashbackEarned: finished.cashbackEarned
        )
        switch outcome {
        case .delivered:
            return TopUpResponse(success: true, message: "Topup successful", code: nil, data: data)
        case .failed(let code, let message):
            return TopUpResponse(
                success: false, message: message + " Your wallet was not charged.", code: code, data: data)
        }
    }
}
