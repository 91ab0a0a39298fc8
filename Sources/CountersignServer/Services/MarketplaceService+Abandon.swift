import CountersignAPI
import CountersignCore

extension MarketplaceService {
    /// A buyer who walked away from a redirect leaves the order `PAYMENT_PENDING`. Before the bid is
    /// withdrawn, the provider's intent is canceled (unless it succeeded meanwhile: then the order is
    /// paid and the bid stays) and the order returns to `NEW`, so nothing is left stuck.
    func abandonPayment(bidId: String) async throws {
        let orders = self.orders
        guard let pending = try await database.read({ sql in try await orders.find(bidId: bidId, on: sql) }), pending.status == .paymentPending else { return }
        _ = try await refresh(pending)
        guard let order = try await database.read({ sql in try await orders.find(bidId: bidId, on: sql) }) else { return }
        switch order.status {
        case .paid, .shipped, .completed:
            throw APIError.conflict("order_paid", "The payment went through meanwhile; the order is paid.")
        case .paymentPending:
            guard let intentId = order.paymentIntentId else { throw Self.paymentInProgress }
            let canceled: ProviderPaymentIntent
            do {
                canceled = try await provider.cancelPaymentIntent(id: intentId)
            } catch is ProviderError {
                _ = try await refresh(order)
                throw Self.paymentInProgress
            }
            try await settle(order, intent: canceled, failure: nil)
        case .new, .canceled, .expired:
            return
        }
    }

    static let paymentInProgress = APIError.conflict("payment_in_progress", "A payment for this bid is under way; wait for its outcome.")
}
