import CountersignAPI
import CountersignCore
import CountersignStore

/// What an operator reverses: a completed transfer, or an operator's funding of a wallet.
package enum ReversalOriginal: String, Sendable {
    case transfer
    case funding

    /// The ledger entry kind of the original, and of its reversal.
    var entryKind: LedgerEntryKind {
        switch self {
        case .transfer: .transfer
        case .funding: .funding
        }
    }
    var reversalKind: LedgerEntryKind {
        switch self {
        case .transfer: .transferReversal
        case .funding: .fundingReversal
        }
    }
    var notFound: APIError {
        switch self {
        case .transfer: APIError(.transferNotFound, "No completed transfer has that id.")
        case .funding: APIError(.fundingNotFound, "No operator funding has that transaction id.")
        }
    }
}

extension OperatorConsole {
    /// Reverses a completed transfer or a funding: one new ledger entry whose postings are exactly
    /// the original's, negated (a transfer's payer gets the amount and fees back, the payee gives
    /// the amount back), a `reversal_in` or `reversal_out` history line for each user it touches
    /// (its reference the original), and a `reversals` row linking the two, whose UNIQUE original
    /// makes a second reversal 409 `already_reversed` even in parallel. A wallet that would go below
    /// zero refuses it: 422 `reversal_insufficient_funds`, with what the wallet has (`available`).
    /// The operator's PIN; never a transfer or funding of their own; recorded in `operator_actions`.
    package func reverse(
        _ kind: ReversalOriginal, id originalId: String, operatorId: String, pin: String, reason text: String
    ) async throws -> OperatorReversal {
        let reason = DisplayText.sanitized(text)
        guard !reason.isEmpty, reason.unicodeScalars.count <= MarketplaceService.maximumReasonLength else {
            throw APIError(.invalidReason, "reason must be 1 to \(MarketplaceService.maximumReasonLength) characters.")
        }
        guard originalId.utf8.count <= 64, !ControlCharacters.appear(in: originalId) else { throw kind.notFound }
        let original = try await database.read { sql in
            try await sql.ledger.postings(kind: kind.entryKind, reference: originalId)
        }
        guard !original.isEmpty else { throw kind.notFound }
        for userId in Set(original.compactMap(\.userId)) { try Self.refuseOwn(operatorId: operatorId, target: userId) }
        try await confirmPin(operatorId: operatorId, pin: pin)
        let now = clock.nowMillis()
        let reversal = OperatorReversal(
            id: Identifier.make("rev"), originalKind: kind.rawValue, originalId: originalId,
            amount: original.filter { $0.userId != nil }.map { abs($0.amount) }.max() ?? 0,
            currency: original.first?.currency ?? currency, reason: reason, createdAt: WallClock.iso8601(millis: now))
        try await database.transaction { sql in
            guard try await sql.operators.recordReversal(reversal, operatorId: operatorId, now: now) else {
                throw APIError(.alreadyReversed, "This \(kind.rawValue) was reversed already.")
            }
            do {
                try await sql.ledger.post(
                    LedgerEntry(
                        kind: kind.reversalKind, reference: reversal.id,
                        postings: original.map { Posting(accountId: $0.accountId, amount: -$0.amount) }),
                    now: now)
            } catch LedgerError.insufficientFunds(let accountId) {
                let available = try await sql.ledger.balance(accountId: accountId)
                let needed = -(original.first { $0.accountId == accountId }?.amount ?? 0)
                throw APIError(
                    .reversalInsufficientFunds,
                    "The wallet that received the money has \(Currency.named(reversal.currency).format(available)) "
                        + "of the \(Currency.named(reversal.currency).format(-needed)) to take back; it cannot go below zero.",
                    available: available)
            }
            for posting in original where posting.userId != nil && posting.accountKind == AccountKind.wallet.rawValue {
                try await sql.walletTransactions.insert(
                    WalletTransaction(
                        id: Identifier.make("tx"), userId: posting.userId ?? "",
                        type: posting.amount < 0 ? .reversalIn : .reversalOut, status: .completed,
                        amount: abs(posting.amount), currency: posting.currency, productCode: nil, recipientPhone: nil,
                        supplierSlug: nil, authorizedBy: "operator", cashbackUsed: 0, cashbackEarned: 0,
                        externalReference: originalId, idempotencyKey: nil, failureCode: nil, createdAt: now,
                        updatedAt: now))
            }
            for userId in Set(original.compactMap(\.userId)).sorted() {
                try await sql.operators.record(
                    Self.action(
                        "reverse_\(kind.rawValue)", operatorId: operatorId, target: userId, now: now,
                        detail: "reversed \(kind.rawValue) \(originalId) (\(reversal.id)): \(reason)"))
            }
            try await WebhookOutbox().recordReversal(reversal, now: now, on: sql)
        }
        return reversal
    }

    /// One posting of the original entry, with its account's owner and kind.
}
