import CountersignAPI
import CountersignCore

extension MarketplaceService {
    /// Starts the payment of the buyer's order with the provider, or — when one is already under
    /// way — reports it: never a second payment for one order. The attempt number is claimed in a
    /// guarded update before the provider is called and is part of the provider's idempotency key,
    /// so a retry after a crash or a timeout reaches the same intent, never a new charge.
    /// A `wallet` order is paid at once from the buyer's wallet instead (`payFromWallet`).
    package func pay(buyerId: String, orderId: String, _ request: PayOrderRequest, session: LiveSession? = nil)
        async throws -> OrderPaymentResponse
    {
        let order = try await buyersOrder(buyerId: buyerId, orderId: orderId)
        switch order.status {
        case .paymentPending:
            return try await refresh(order)
        case .paid, .shipped, .completed:
            throw APIError(.orderPaid, "This order is paid already.")
        case .canceled, .expired:
            throw APIError(.orderClosed, "This order is \(order.status.rawValue).")
        case .new:
            break
        }
        if order.paymentMethod == .wallet { return try await payFromWallet(order, request, session: session) }
        if let returnURL = request.returnURL, !returnURLs.permits(returnURL) {
            throw APIError(
                .invalidReturnURL,
                "returnURL must be an absolute URL of at most 2048 characters at one of this server's return origins or app schemes."
            )
        }
        if order.paymentMethod == .card, request.paymentMethodId == nil {
            throw APIError(.paymentMethodRequired, "A card payment needs paymentMethodId, one of your saved cards.")
        }
        if request.returnURL == nil, provider.requiresReturnURL(order.paymentMethod) {
            // Refused before the attempt is claimed: nothing about the order changes.
            throw APIError(
                .returnURLRequired,
                "returnURL is required: the payment provider may send the payer to 3-D Secure or the bank and back.")
        }
        let now = clock.nowMillis()
        let attempt = order.paymentAttempt + 1
        let claimed = try await database.transaction { sql in
            try await sql.orders.startPayment(
                orderId: order.id, attempt: attempt, paymentMethodId: request.paymentMethodId,
                returnURL: request.returnURL, now: now)
        }
        guard claimed, let started = try await database.read({ sql in try await sql.orders.find(id: orderId) })
        else {
            // Another request started (or finished) a payment meanwhile: report that one.
            return try await refresh(try await buyersOrder(buyerId: buyerId, orderId: orderId))
        }
        return try await refresh(started)
    }

    /// `GET /orders/{id}/payment`: the provider's current word on the order's payment, applied. The
    /// seller sees where the payment stands, never the buyer's `redirectURL`: with a real provider it
    /// is the buyer's own 3-D Secure or bank page.
    package func payment(userId: String, orderId: String) async throws -> OrderPaymentResponse {
        let order = try await visibleOrder(userId: userId, orderId: orderId)
        var answer = try await refresh(order)
        if userId != order.buyerId { answer.redirectURL = nil }
        return answer
    }

    /// Orders left `PAYMENT_PENDING` since before `updatedBefore` (a payer who never came back, a
    /// webhook that never arrived, a process that stopped mid-payment), oldest first.
    package func pendingOrders(updatedBefore: Int64) async throws -> [Order] {
        return try await database.read { sql in try await sql.orders.pending(updatedBefore: updatedBefore) }
    }

    /// Asks the provider about one pending order and applies its answer.
    package func settlePending(_ order: Order) async throws {
        _ = try await refresh(order)
    }

    /// Asks the provider where a pending payment stands and applies it; other orders as they are.
    func refresh(_ order: Order) async throws -> OrderPaymentResponse {
        guard order.status == .paymentPending else { return Self.payment(order, intent: nil) }
        let intent: ProviderPaymentIntent
        if let intentId = order.paymentIntentId {
            intent = try await provider.retrievePaymentIntent(id: intentId)
        } else {
            // Created now, or again after a crash: the same key returns the same intent.
            do {
                intent = try await provider.createPaymentIntent(
                    amount: order.totals.total, currency: order.totals.currency, method: order.paymentMethod,
                    paymentMethodId: order.paymentMethodId, customerId: order.buyerId, orderId: order.id,
                    returnURL: order.returnURL, idempotencyKey: "order_\(order.id)_\(order.paymentAttempt)"
                )
            } catch let refused as ProviderError where refused.code != .paymentProviderUnavailable {
                // The provider refused the request itself (a card that is not the buyer's…): the
                // attempt ends and the buyer may choose again.
                try await settle(
                    order, intent: nil,
                    failure: ProviderPaymentError(code: refused.code.rawValue, message: refused.message))
                throw APIError(refused.code, refused.message)
            }
        }
        _ = try await settle(order, intent: intent, failure: nil)
        let current = try await database.read { sql in try await sql.orders.find(id: order.id) } ?? order
        return Self.payment(current, intent: intent)
    }

    /// Applies the intent's status to the order in one transaction: succeeded → PAID, the bid
    /// COMPLETED and the money booked (see `bookPayment`); back to requires_payment_method or
    /// canceled → NEW with the error; otherwise the intent id is recorded and the order stays
    /// pending. Every move is guarded by the order's status, so a webhook and a poll racing settle
    /// it, and book it, once.
    @discardableResult
    func settle(_ order: Order, intent: ProviderPaymentIntent?, failure: ProviderPaymentError?) async throws -> Bool {
        if let intent, intent.status == .succeeded,
            intent.amount != order.totals.total || intent.currency.uppercased() != order.totals.currency
        {
            // Never mark an order paid on a payment of another amount: an operator must look.
            throw APIError(
                .paymentMismatch,
                "The provider reports a payment of \(intent.amount) \(intent.currency) for an order of \(order.totals.total) \(order.totals.currency)."
            )
        }
        let now = clock.nowMillis()
        let lock = database.forUpdate
        let moved = try await database.transaction { sql in
            if let intent, order.paymentIntentId == nil {
                try await sql.orders.recordIntent(
                    orderId: order.id, attempt: order.paymentAttempt, intentId: intent.id)
            }
            switch intent?.status {
            case .succeeded?:
                guard try await sql.orders.move(orderId: order.id, from: .paymentPending, to: .paid, now: now)
                else { return false }
                try await sql.marketplace.lock(productId: order.productId, lock)
                _ = try await sql.marketplace.move(bidId: order.bidId, from: .accepted, to: .completed, now: now)
                try await sql.marketplace.closeOpenBids(
                    productId: order.productId, soldBidId: order.bidId, now: now)
                try await Self.bookPayment(order, now: now, on: sql)
                return true
            case .requiresPaymentMethod?, nil:
                let error = failure ?? intent?.lastPaymentError ?? Self.canceled
                return try await sql.orders.failPayment(
                    orderId: order.id, attempt: order.paymentAttempt, code: error.code, message: error.message,
                    now: now)
            case .canceled?:
                // The status decides: a canceled intent may still carry the error of an earlier
                // try (a failed 3-D Secure), but this attempt ended because it was canceled.
                return try await sql.orders.failPayment(
                    orderId: order.id, attempt: order.paymentAttempt, code: Self.canceled.code,
                    message: Self.canceled.message, now: now)
            case .requiresAction?, .processing?:
                return false
            }
        }
        if moved {
            let outcome =
                switch intent?.status {
                case .succeeded?: "completed"
                case .canceled?: "canceled"
                default: "failed"
                }
            metrics.payment(kind: "order_payment", outcome: outcome)
        }
        return moved
    }

    static let canceled = ProviderPaymentError(code: "payment_canceled", message: "The payment was canceled.")

    /// Where a provider's page may send the payer back: an absolute URL with a scheme (https, http, or
    /// an app's own), printable ASCII only, so it can go into a `Location` header as it is.
    package static func isReturnURL(_ url: String) -> Bool {
        guard (1...2048).contains(url.utf8.count), url.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
            let colon = url.firstIndex(of: ":"), url[url.index(after: colon)...].hasPrefix("//")
        else { return false }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter, !Self.scriptSchemes.contains(scheme.lowercased()) else {
            return false
        }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) } && url.count > scheme.count + 3
    }

    /// Schemes a browser would run or read locally rather than navigate to.
    private static let scriptSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob"]

    func buyersOrder(buyerId: String, orderId: String) async throws -> Order {
        let order = try await visibleOrder(userId: buyerId, orderId: orderId)
        guard order.buyerId == buyerId else { throw APIError(.notBuyer, "Only the order's buyer may do this.") }
        return order
    }

    func visibleOrder(userId: String, orderId: String) async throws -> Order {
        let found = try await database.read { sql in
            orderId.utf8.count <= 64 ? try await sql.orders.find(id: orderId) : nil
        }
        guard let found, found.buyerId == userId || found.sellerId == userId else {
            throw APIError(.orderNotFound, "No such order.")
        }
        return found
    }

    static func payment(_ order: Order, intent: ProviderPaymentIntent?) -> OrderPaymentResponse {
        OrderPaymentResponse(
            orderId: order.id, orderStatus: order.status, paymentStatus: intent?.status.rawValue,
            redirectURL: intent?.status == .requiresAction ? intent?.redirectURL : nil,
            error: order.paymentErrorCode.map {
                OrderPaymentResponse.Failure(code: $0, message: order.paymentErrorMessage ?? "")
            }
        )
    }
}
