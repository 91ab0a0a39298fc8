import CountersignAPI
import CountersignCore

/// A provider's event about a payment intent, as much of it as we read: which intent, for which
/// order. The status in the event is never trusted: the provider is asked again.
package struct PaymentWebhookEvent: Decodable, Sendable {
    package struct Payload: Decodable, Sendable {
        package struct Intent: Decodable, Sendable {
            /// `orderId` as the simulator writes it, `order_id` as the Stripe provider does.
            package struct Metadata: Decodable, Sendable {
                package let orderId: String?

                enum CodingKeys: String, CodingKey {
                    case orderId, stripeOrderId = "order_id"
                }

                package init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    orderId =
                        try container.decodeIfPresent(String.self, forKey: .orderId)
                        ?? container.decodeIfPresent(String.self, forKey: .stripeOrderId)
                }
            }
            package let id: String
            package let metadata: Metadata?
        }
        package let object: Intent
    }
    /// The event id.
    package let id: String
    /// E.g. `payment_intent.succeeded`.
    package let type: String
    package let data: Payload
}

extension MarketplaceService {
    /// Applies a verified webhook: the order named in the intent's metadata is refreshed from the
    /// provider, under the same guards as a poll, so duplicates, out-of-order events and a poll racing
    /// it settle the order once. Events about unknown orders are acknowledged and ignored, and so are
    /// those whose order id cannot be one (too long, or with a control character, which PostgreSQL
    /// could not even compare).
    package func handleWebhook(_ event: PaymentWebhookEvent) async throws {
        // Stripe's `refund.updated`, `refund.failed`, `charge.refund.updated`: the object is the refund.
        if event.type.hasPrefix("refund.") || event.type.hasPrefix("charge.refund.") {
            return try await handleRefundEvent(providerRefundId: event.data.object.id)
        }
        guard event.type.hasPrefix("payment_intent."), let orderId = event.data.object.metadata?.orderId,
            orderId.utf8.count <= 64, !ControlCharacters.appear(in: orderId)
        else { return }
        guard let order = try await database.read({ sql in try await sql.orders.find(id: orderId) }) else {
            return
        }
        // Another attempt's intent says nothing about the current one.
        if let current = order.paymentIntentId, current != event.data.object.id { return }
        _ = try await refresh(order)
    }
}
