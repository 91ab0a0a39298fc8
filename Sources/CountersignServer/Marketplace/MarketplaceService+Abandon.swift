import CountersignAPI
import CountersignCore

extension MarketplaceService {
    /// A buyer who walked away from a redirect leaves the order `PAYMENT_PENDING`. Before the bid is
    /// withdrawn, the provider's intent is canceled (unless it succeeded meanwhile: then the order is
    /// paid and the bid stays) and the order returns to `NEW`, so nothing is left stuck.
    func abandonPayment(bidId: String) async throws {
        guard let pending = try await database.read({ sql in try await sql.orders.find(bidId: bidId) }),
            pending.status == .paymentPending
        else { return }
        _ = try await refresh(pending)
        guard let order = try await database.read({ sql in try await sql.orders.find(bidId: bidId) }) else {
            return
        }
        switch order.status {
        case .paid, .shipped, .completed:
            throw APIError(.orderPaid, "The payment went through meanwhile; the order is paid.")
        case .paymentPending:
            guard let intentId = order.paymentIntentId else { throw Self.paymentInProgress }
            let canceled: ProviderPaymentIntent
            do {
                canceled = try await provider.cancelPaymentIntent(id: intentId)
            } catch is ProviderError {
                // The provider would not cancel: most often the payer finished meanwhile. What
                // the provider says now decides the answer, not the order as it was read before.
                let now = try await refresh(order)
                if [.paid, .shipped, .completed].contains(now.orderStatus) {
                    throw APIError(.orderPaid, "The payment went through meanwhile; the order is paid.")
                }
                throw Self.paymentInProgress
            }
            try await settle(order, intent: canceled, failure: nil)
        case .new, .canceled, .expired:
            return
        }
    }

    /// `POST /orders/{id}/payment/cancel`: the buyer stops a payment left waiting (an abandoned
    /// redirect) to choose again. The provider's intent is canceled and the order returns to `NEW`
    /// with the choices it had; if the payment went through meanwhile, 409 `order_paid` and the order
    /// stands. An order with no payment under way is reported as it is.
    package func cancelPayment(buyerId: String, orderId: String) async throws -> OrderPaymentResponse {
        let order = try await buyersOrder(buyerId: buyerId, orderId: orderId)
        switch order.status {
        case .paid, .shipped, .completed: throw APIError(.orderPaid, "This order is paid already.")
        case .canceled, .expired: throw APIError(.orderClosed, "This order is \(order.status.rawValue).")
        case .new, .paymentPending: break
        }
        try await abandonPayment(bidId: order.bidId)
        return try await refresh(try await buyersOrder(buyerId: buyerId, orderId: orderId))
    }

    static let paymentInProgress = APIError(
        .paymentInProgress, "A payment for this bid is under way; wait for its outcome.")
}
