import CountersignAPI
import CountersignCore
import CountersignStore

extension MarketplaceService {
    /// Books a succeeded payment, in the transaction that marks the order paid: the total comes
    /// `from` the provider (it owes us) or the buyer's wallet; the seller's escrow holds the price
    /// and the shipping until the buyer confirms receipt; the payment-method fee is ours. (The
    /// system accounts are opened at start-up.) This is where an order's payment commits.
    static func bookPayment(
        _ order: Order, from source: String? = nil, now: Int64, on sql: any SQLExecutor
    ) async throws {
        let totals = order.totals
        let escrow = try await sql.ledger.openAccount(
            userId: order.sellerId, kind: .escrow, currency: totals.currency, now: now)
        var postings = [
            Posting(accountId: source ?? SystemAccount.providerClearing(totals.currency), amount: -totals.total),
            Posting(accountId: escrow, amount: totals.subtotal + totals.shipping),
        ]
        if totals.paymentFee > 0 {
            postings.append(Posting(accountId: SystemAccount.paymentFees(totals.currency), amount: totals.paymentFee))
        }
        try await sql.ledger.post(
            LedgerEntry(kind: .orderPayment, reference: order.id, postings: postings), now: now)
    }

    /// The seller marks a paid order shipped (or handed over, for pickup).
    package func ship(sellerId: String, orderId: String) async throws -> OrderResponse {
        let order = try await visibleOrder(userId: sellerId, orderId: orderId)
        guard order.sellerId == sellerId else { throw APIError(.notSeller, "Only the seller ships an order.") }
        let now = clock.nowMillis()
        guard order.status.canMove(to: .shipped),
            try await database.transaction({ sql in
                try await sql.orders.move(orderId: order.id, from: .paid, to: .shipped, now: now)
            })
        else {
            throw APIError(.invalidState, "The order is \(order.status.rawValue); only a paid order ships.")
        }
        return try await self.order(userId: sellerId, id: orderId)
    }

    /// The buyer confirms receipt of a shipped order: it completes, and the seller's money moves
    /// from escrow to what we owe them, in one transaction: the proceeds less what refunds took
    /// (read after the move, which holds the order's row, so no refund slips in between).
    package func complete(buyerId: String, orderId: String) async throws -> OrderResponse {
        let order = try await buyersOrder(buyerId: buyerId, orderId: orderId)
        let now = clock.nowMillis()
        let currency = order.totals.currency
        let proceeds = order.totals.subtotal + order.totals.shipping
        guard order.status.canMove(to: .completed) else {
            throw APIError(.invalidState, "The order is \(order.status.rawValue); only a shipped order completes.")
        }
        let completed = try await database.transaction { sql in
            guard try await sql.orders.move(orderId: order.id, from: .shipped, to: .completed, now: now) else {
                return false
            }
            let payable = try await sql.ledger.openAccount(
                userId: order.sellerId, kind: .payable, currency: currency, now: now)
            let escrow = LedgerRepository.accountId(userId: order.sellerId, kind: .escrow, currency: currency)
            let refunded = try await sql.orders.find(id: order.id)?.refunded ?? 0
            // A fully refunded order has nothing left to release (and an entry of zero is none).
            guard proceeds > refunded else { return true }
            try await sql.ledger.post(
                .transfer(
                    kind: .orderRelease, reference: order.id, amount: proceeds - refunded, from: escrow, to: payable),
                now: now)
            return true
        }
        guard completed else {
            throw APIError(.invalidState, "The order is \(order.status.rawValue); only a shipped order completes.")
        }
        return try await self.order(userId: buyerId, id: orderId)
    }

    /// What the marketplace holds for a seller (`held`: paid orders not yet completed) and owes them
    /// (`payable`: completed orders), in the marketplace's currency.
    package func proceeds(sellerId: String) async throws -> ProceedsResponse {
        let currency = rates.currency
        return try await database.read { sql in
            ProceedsResponse(
                held: try await sql.ledger.balance(userId: sellerId, kind: .escrow, currency: currency),
                payable: try await sql.ledger.balance(userId: sellerId, kind: .payable, currency: currency),
                currency: currency
            )
        }
    }
}
