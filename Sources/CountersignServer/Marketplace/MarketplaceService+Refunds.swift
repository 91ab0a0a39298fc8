import CountersignAPI
import CountersignCore
import CountersignStore

/// Who asks for a refund: the order's seller until the proceeds are released, an operator (whose
/// PIN the caller checked) at any time.
package enum RefundRequester: Sendable, Equatable {
    case seller(String)
    case `operator`(String)

    var userId: String {
        switch self {
        case .seller(let id), .operator(let id): id
        }
    }
    var role: String { if case .seller = self { "seller" } else { "operator" } }
    /// The order statuses from which this requester may refund.
    var statuses: [OrderStatus] {
        if case .seller = self { [.paid, .shipped] } else { [.paid, .shipped, .completed] }
    }
}

/// Where a refund's money goes back to the buyer. One place decides, per order: through the
/// payment provider that took it, or straight into the wallet it came from.
enum RefundDestination: Sendable, Equatable {
    case paymentProvider(intentId: String)
    /// The buyer's wallet in the order's currency: settled at once, no provider.
    case wallet(accountId: String)

    static func of(_ order: Order) -> RefundDestination? {
        if order.paymentMethod == .wallet {
            return .wallet(
                accountId: LedgerRepository.accountId(
                    userId: order.buyerId, kind: .wallet, currency: order.totals.currency))
        }
        return order.paymentIntentId.map { .paymentProvider(intentId: $0) }
    }
}

extension MarketplaceService {
    /// The longest refund reason, in characters.
    package static let maximumReasonLength = 200

    /// Refunds `amount` of a paid order (see docs/refunds.md for the ledger): in one transaction the
    /// `Idempotency-Key` is claimed, the order's refunded total is raised within what it can refund,
    /// the amount leaves the seller's escrow (or, once released, their payable and past it their
    /// debt) for refund clearing, and the refund is recorded `pending`. Then the provider is asked;
    /// its outcome settles it now or later (webhook, sweeper). A retry with the key answers the
    /// refund it made (`replayed`).
    package func refund(
        orderId: String, by requester: RefundRequester, _ request: CreateRefundRequest, idempotencyKey: String
    ) async throws -> (refund: RefundResponse, replayed: Bool) {
        guard (1...Self.maximumAmount).contains(request.amount) else {
            throw APIError(
                .invalidAmount,
                "amount must be between 1 and \(Self.maximumAmount) minor units (at most \(largestShown)).")
        }
        let reason = DisplayText.sanitized(request.reason)
        guard !reason.isEmpty, reason.unicodeScalars.count <= Self.maximumReasonLength else {
            throw APIError(.invalidReason, "reason must be 1 to \(Self.maximumReasonLength) characters.")
        }
        guard orderId.utf8.count <= 64 else { throw APIError(.orderNotFound, "No such order.") }
        // The endpoint is part of the fingerprint: a seller's key and an operator's never match.
        let idempotent = IdempotentRequest(
            key: idempotencyKey,
            canonical: Array("refund \(requester.role)\n\(orderId)\n\(request.amount)\n\(reason)".utf8))
        let (owner, now) = (instance.id, clock.nowMillis())
        let (made, created) = try await database.transaction { sql in
            try await sql.idempotency.claimResource(
                idempotent, userId: requester.userId, owner: owner, now: now, id: \.id,
                find: { try await sql.orderRefunds.find(id: $0) },
                make: {
                    guard let order = try await sql.orders.find(id: orderId) else {
                        throw APIError(.orderNotFound, "No such order.")
                    }
                    return try await Self.takeRefund(
                        order, amount: request.amount, reason: reason, by: requester, now: now, on: sql)
                })
        }
        // A key that made another endpoint's resource (its fingerprint never matches a refund's).
        guard let refund = made else { throw IdempotentRequest.reused }
        let current = refund.status == .pending ? try await advance(refund) : refund
        return (Self.wire(current), !created)
    }

    /// The order's refunds, for its buyer or seller; 404 for anyone else.
    package func refunds(userId: String, orderId: String) async throws -> RefundList {
        let order = try await visibleOrder(userId: userId, orderId: orderId)
        return RefundList(
            refunds: try await database.read { sql in try await sql.orderRefunds.list(orderId: order.id) }.map(
                Self.wire))
    }

    /// The checks and the money of a new refund, inside the request's transaction.
    private static func takeRefund(
        _ order: Order, amount: Int64, reason: String, by requester: RefundRequester,
        now: Int64, on sql: any SQLExecutor
    ) async throws -> OrderRefund {
        switch requester {
        case .seller(let userId) where order.sellerId != userId:
            guard order.buyerId == userId else { throw APIError(.orderNotFound, "No such order.") }
            throw APIError(.notSeller, "Only the order's seller (or an operator) refunds an order.")
        case .operator(let userId) where order.sellerId == userId || order.buyerId == userId:
            throw APIError(.ownAccount, "Operators may not refund their own orders; ask another operator.")
        default: break
        }
        guard order.status.isPaid, RefundDestination.of(order) != nil else {
            throw APIError(.invalidState, "The order is \(order.status.rawValue); only a paid order is refunded.")
        }
        guard
            let status = try await sql.orderRefunds.reserve(
                orderId: order.id, amount: amount, statuses: requester.statuses)
        else {
            // Read again: another refund or a completion may have committed since `order` was read.
            let now = try await sql.orders.find(id: order.id) ?? order
            guard requester.statuses.contains(now.status) else {
                throw APIError(
                    .invalidState,
                    "The order is completed and its proceeds released; only an operator can refund it now.")
            }
            let left = now.totals.subtotal + now.totals.shipping - now.refunded
            throw APIError(
                .refundExceedsPaid,
                "At most \(Currency.named(now.totals.currency).format(left)) of this order can still be refunded.",
                available: left)
        }
        let currency = order.totals.currency
        var refund = OrderRefund(
            id: Identifier.make("rfd"), orderId: order.id, amount: amount, currency: currency, reason: reason,
            status: .pending, requestedBy: requester.userId, requestedAs: requester.role, fromEscrow: 0,
            fromPayable: 0, fromDebt: 0, providerRefundId: nil, failureMessage: nil, createdAt: now, updatedAt: now)
        var postings = [Posting(accountId: SystemAccount.refundClearing(currency), amount: amount)]
        if status == .completed {
            let payable = LedgerRepository.accountId(userId: order.sellerId, kind: .payable, currency: currency)
            refund.fromPayable = min(amount, max(0, try await sql.ledger.balance(accountId: payable)))
            refund.fromDebt = amount - refund.fromPayable
            if refund.fromPayable > 0 { postings.append(Posting(accountId: payable, amount: -refund.fromPayable)) }
            if refund.fromDebt > 0 {
                let debt = try await sql.ledger.openAccount(
                    userId: order.sellerId, kind: .receivable, currency: currency, now: now)
                postings.append(Posting(accountId: debt, amount: -refund.fromDebt))
            }
        } else {
            refund.fromEscrow = amount
            postings.append(
                Posting(
                    accountId: LedgerRepository.accountId(userId: order.sellerId, kind: .escrow, currency: currency),
                    amount: -amount))
        }
        try await sql.ledger.post(
            LedgerEntry(kind: .orderRefund, reference: refund.id, postings: postings), now: now)
        try await sql.orderRefunds.insert(refund)
        if case .operator(let operatorId) = requester {
            try await sql.operators.record(
                OperatorAction(
                    id: Identifier.make("opa"), operatorId: operatorId, via: "console", action: "refund_order",
                    targetUserId: order.sellerId,
                    detail: "refunded \(amount) \(currency) of order \(order.id) (\(refund.id)): \(reason)",
                    createdAt: now))
        }
        return refund
    }

    /// Asks the provider about a pending refund (creating it there first, under a key of the
    /// refund's own, if it never got that far) and applies a final answer. A provider that cannot
    /// be reached leaves it pending for the sweeper; one that refuses the refund fails it.
    @discardableResult
    func advance(_ refund: OrderRefund) async throws -> OrderRefund {
        guard let order = try await database.read({ sql in try await sql.orders.find(id: refund.orderId) }),
            let destination = RefundDestination.of(order)
        else { return refund }
        let outcome: ProviderRefund
        do {
            switch destination {
            case .wallet(let accountId):
                return try await settle(refund, succeeded: true, failureMessage: nil, into: accountId)
            case .paymentProvider(let intentId):
                if let providerId = refund.providerRefundId {
                    outcome = try await provider.retrieveRefund(id: providerId)
                } else {
                    outcome = try await provider.createRefund(
                        paymentIntentId: intentId, amount: refund.amount, idempotencyKey: "refund_\(refund.id)")
                    try await database.transaction { sql in
                        try await sql.orderRefunds.recordProviderRefund(id: refund.id, providerRefundId: outcome.id)
                    }
                }
            }
        } catch let error as ProviderError where error != .providerUnavailable {
            return try await settle(refund, succeeded: false, failureMessage: error.message)
        } catch let error as ProviderError where error == .providerUnavailable {
            return refund
        }
        guard outcome.status.isFinal else { return refund }
        return try await settle(
            refund, succeeded: outcome.status == .succeeded,
            failureMessage: outcome.status == .succeeded ? nil : Self.failureMessage(outcome))
    }

    /// Where a refund's money moves when the provider has answered, in one transaction: on success
    /// from refund clearing to the provider's account (it paid the buyer back); on failure back to
    /// the seller (escrow while the order is not completed, else payable; a debt part back to the
    /// debt) and off the order's refunded total. Guarded by status, so a webhook and a poll settle
    /// it once. This is where a refund's outcome commits: the one place to announce it. A refund
    /// `into` the buyer's wallet goes there instead of to the provider.
    func settle(_ refund: OrderRefund, succeeded: Bool, failureMessage: String?, into wallet: String? = nil)
        async throws -> OrderRefund
    {
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard
                try await sql.orderRefunds.settle(
                    id: refund.id, status: succeeded ? .succeeded : .failed, failureMessage: failureMessage, now: now)
            else { return }
            var settled = refund
            (settled.status, settled.failureMessage, settled.updatedAt) = (
                succeeded ? .succeeded : .failed, failureMessage, now
            )
            try await WebhookOutbox().recordRefund(settled, on: sql)
            let (currency, clearing) = (refund.currency, SystemAccount.refundClearing(refund.currency))
            guard !succeeded else {
                try await sql.ledger.post(
                    .transfer(
                        kind: .orderRefundSettled, reference: refund.id, amount: refund.amount, from: clearing,
                        to: wallet ?? SystemAccount.providerClearing(currency)), now: now)
                if wallet != nil,
                    let buyerId = try await sql.orders.find(id: refund.orderId)?.buyerId
                {
                    try await sql.walletTransactions.insert(
                        Self.walletLine(
                            type: .orderRefund, buyerId: buyerId, orderId: refund.orderId, amount: refund.amount,
                            currency: currency, authorizedBy: nil, now: now))
                }
                return
            }
            guard
                let status = try await sql.orderRefunds.unreserve(orderId: refund.orderId, amount: refund.amount),
                let sellerId = try await sql.orders.find(id: refund.orderId)?.sellerId
            else { throw DatabaseError.engine("refund \(refund.id) names no order") }
            let back = refund.fromEscrow + refund.fromPayable
            var postings = [Posting(accountId: clearing, amount: -refund.amount)]
            if back > 0 {
                let kind: AccountKind = status == .completed ? .payable : .escrow
                let account = try await sql.ledger.openAccount(
                    userId: sellerId, kind: kind, currency: currency, now: now)
                postings.append(Posting(accountId: account, amount: back))
            }
            if refund.fromDebt > 0 {
                postings.append(
                    Posting(
                        accountId: LedgerRepository.accountId(userId: sellerId, kind: .receivable, currency: currency),
                        amount: refund.fromDebt))
            }
            try await sql.ledger.post(
                LedgerEntry(kind: .orderRefundFailed, reference: refund.id, postings: postings), now: now)
        }
        return try await database.read { sql in try await sql.orderRefunds.find(id: refund.id) } ?? refund
    }

    /// Applies a provider's event about a refund: asked again, never trusted.
    func handleRefundEvent(providerRefundId: String) async throws {
        guard providerRefundId.utf8.count <= 255, !ControlCharacters.appear(in: providerRefundId),
            let refund = try await database.read({ sql in
                try await sql.orderRefunds.find(providerRefundId: providerRefundId)
            }), refund.status == .pending
        else { return }
        try await advance(refund)
    }

    /// Refunds pending since before `updatedBefore`, for the sweeper.
    package func pendingRefunds(updatedBefore: Int64) async throws -> [OrderRefund] {
        return try await database.read { sql in try await sql.orderRefunds.pending(updatedBefore: updatedBefore) }
    }

    static func failureMessage(_ outcome: ProviderRefund) -> String {
        switch outcome.failureReason {
        case "expired_or_canceled_card", "lost_or_stolen_card":
            "The buyer's card is closed, so the bank could not take the money back. It stays with the seller."
        default:
            "The payment provider could not return the money (\(outcome.status.rawValue)). It stays with the seller."
        }
    }

    static func wire(_ refund: OrderRefund) -> RefundResponse {
        RefundResponse(
            id: refund.id, orderId: refund.orderId, amount: refund.amount, currency: refund.currency,
            reason: refund.reason, status: refund.status, requestedBy: refund.requestedAs,
            failureMessage: refund.failureMessage, createdAt: WallClock.iso8601(millis: refund.createdAt),
            updatedAt: WallClock.iso8601(millis: refund.updatedAt))
    }
}
