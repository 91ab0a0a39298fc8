import CountersignAPI
import CountersignCore
import CountersignStore

extension MarketplaceService {
    /// The `kind` of a wallet order's intent.
    static let walletIntentKind = "marketplace_order"

    /// What the buyer's device signs for a `wallet` order: its total, in its currency, to its seller.
    /// `productCode` carries the order's id and `supplierSlug` the seller's user id, so the challenge
    /// (`SHA-256(nonce ‖ canonical intent)`) and the token it yields pay this order to this seller only.
    static func walletIntent(_ order: Order) -> PaymentIntent {
        PaymentIntent(
            kind: walletIntentKind, amount: order.totals.total, currency: order.totals.currency,
            productCode: order.id, recipientPhone: "", supplierSlug: order.sellerId)
    }

    /// `POST /orders/{id}/pay/options`: the passkey's request options for a `NEW` wallet order,
    /// refused before any gesture when the wallet cannot pay the total.
    package func walletPaymentOptions(buyerId: String, orderId: String, session: LiveSession?) async throws
        -> AuthenticationOptionsResponse
    {
        let order = try await walletOrder(buyerId: buyerId, orderId: orderId)
        try await ensureWalletCovers(order)
        return try await biometric.paymentOptions(userId: buyerId, intent: Self.walletIntent(order), session: session) {
            balances in
            guard balances.wallet >= order.totals.total else {
                throw Self.insufficientFunds(order, balance: balances.wallet)
            }
        }
    }

    /// Pays a `NEW` wallet order with a verification token for its intent or the PIN: in one
    /// transaction the token is spent, the order moves `NEW` → `PAID`, the bid completes, and the
    /// total leaves the buyer's wallet for the seller's escrow. Of parallel copies one pays; the
    /// others are told the order is paid and spend nothing.
    func payFromWallet(_ order: Order, _ request: PayOrderRequest, session: LiveSession?) async throws
        -> OrderPaymentResponse
    {
        let factor = try PaymentAuthorizer.factor(verificationToken: request.verificationToken, pin: request.pin)
        let intent = Self.walletIntent(order)
        let (authorization, user) = try await authorizer.authorize(
            userId: order.buyerId, intent: intent, factor: factor, session: session)
        let now = clock.nowMillis()
        let lock = database.forUpdate
        let wallet = LedgerRepository.accountId(userId: order.buyerId, kind: .wallet, currency: order.totals.currency)
        do {
            try await database.transaction { sql in
                // The token spent or the PIN counted against its allowance, the wallet locked and the
                // spending limits checked: as a top-up's debit does.
                try await authorizer.commit(
                    authorization, userId: order.buyerId, intent: intent, locking: [wallet], now: now, on: sql
                ).make(on: sql)
                // The guard on NEW is the lock: a parallel copy loses here and rolls back its token.
                guard try await sql.orders.move(orderId: order.id, from: .new, to: .paid, now: now) else {
                    throw APIError(.orderPaid, "This order is paid already.")
                }
                try await sql.marketplace.lock(productId: order.productId, lock)
                _ = try await sql.marketplace.move(bidId: order.bidId, from: .accepted, to: .completed, now: now)
                try await sql.marketplace.closeOpenBids(
                    productId: order.productId, soldBidId: order.bidId, now: now)
                try await Self.bookPayment(order, from: wallet, now: now, on: sql)
                try await sql.walletTransactions.insert(
                    Self.walletLine(
                        type: .orderPayment, buyerId: order.buyerId, orderId: order.id, amount: order.totals.total,
                        currency: order.totals.currency, authorizedBy: authorization.label, now: now))
                if user.failedPaymentAuths > 0 { try await sql.users.resetPaymentFailures(userId: order.buyerId) }
            }
        } catch LedgerError.insufficientFunds {
            metrics.payment(kind: "order_payment", outcome: "insufficient_funds")
            throw Self.insufficientFunds(order)
        }
        metrics.payment(kind: "order_payment", outcome: "completed")
        let paid = try await database.read { sql in try await sql.orders.find(id: order.id) } ?? order
        return OrderPaymentResponse(
            orderId: paid.id, orderStatus: paid.status, paymentStatus: "succeeded", redirectURL: nil, error: nil)
    }

    /// The buyer's history line for money between their wallet and an order: `order_payment` (paid
    /// out) or `order_refund` (given back); its reference is the order.
    static func walletLine(
        type: WalletTransactionType, buyerId: String, orderId: String, amount: Int64, currency: String,
        authorizedBy: String?,
        now: Int64
    ) -> WalletTransaction {
        WalletTransaction(
            id: Identifier.make("tx"), userId: buyerId, type: type, status: .completed, amount: amount,
            currency: currency, productCode: nil, recipientPhone: nil, supplierSlug: nil, authorizedBy: authorizedBy,
            cashbackUsed: 0, cashbackEarned: 0, externalReference: orderId, idempotencyKey: nil, failureCode: nil,
            createdAt: now, updatedAt: now)
    }

    /// The buyer's order, `NEW` and to be paid from the wallet.
    private func walletOrder(buyerId: String, orderId: String) async throws -> Order {
        let order = try await buyersOrder(buyerId: buyerId, orderId: orderId)
        guard order.paymentMethod == .wallet else {
            throw APIError(
                .paymentMethodNotOffered,
                "This order is paid by \(order.paymentMethod.displayName); choose Wallet at checkout to pay from your wallet."
            )
        }
        switch order.status {
        case .new: return order
        case .paid, .shipped, .completed: throw APIError(.orderPaid, "This order is paid already.")
        case .paymentPending, .canceled, .expired:
            throw APIError(.orderClosed, "This order is \(order.status.rawValue).")
        }
    }

    /// Refuses an order the buyer's wallet in its currency cannot pay; the debit checks again.
    private func ensureWalletCovers(_ order: Order) async throws {
        let balance = try await database.read { sql in
            try await sql.ledger.balance(
                userId: order.buyerId, kind: .wallet, currency: order.totals.currency)
        }
        guard balance >= order.totals.total else { throw Self.insufficientFunds(order, balance: balance) }
    }

    private static func insufficientFunds(_ order: Order, balance: Int64? = nil) -> APIError {
        let currency = Currency.named(order.totals.currency)
        let held = balance.map { " holds \(currency.format($0)) and" } ?? ""
        return APIError(
            .insufficientFunds,
            "Your \(order.totals.currency) wallet\(held) cannot pay \(currency.format(order.totals.total)). "
                + "Add money to it, or choose another payment method. Nothing was charged.")
    }
}
