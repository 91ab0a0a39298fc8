extension StripeObject {
    /// A Refund (`POST /v1/refunds`, `GET /v1/refunds/{refund}`).
    struct Refund: Decodable, Sendable, Equatable {
        let id: String
        let amount: Int64
        let currency: String
        /// The intent refunded; Stripe sends the id unless it was expanded.
        let paymentIntent: String?
        /// `pending`, `requires_action`, `succeeded`, `failed` or `canceled`.
        let status: String?
        let failureReason: String?

        enum CodingKeys: String, CodingKey {
            case id, amount, currency, status
            case paymentIntent = "payment_intent", failureReason = "failure_reason"
        }
    }
}

extension StripePaymentProvider {
    /// Stripe's Refunds API: `payment_intent` and `amount`, under our idempotency key, so a retry
    /// reaches the same refund.
    package func createRefund(paymentIntentId: String, amount: Int64, idempotencyKey: String) async throws
        -> ProviderRefund
    {
        guard Self.pathSegment(paymentIntentId) != nil else { throw ProviderError.intentNotFound(paymentIntentId) }
        var form = StripeForm()
        form["payment_intent"] = paymentIntentId
        form["amount"] = String(amount)
        return try await call {
            try Self.refund(
                try await api.post("/v1/refunds", form, idempotencyKey: idempotencyKey), intent: paymentIntentId)
        }
    }

    package func retrieveRefund(id: String) async throws -> ProviderRefund {
        guard let segment = Self.pathSegment(id) else { throw ProviderError.refundNotFound(id) }
        return try await call(recover: { refusal in
            if refusal.status == 404 { throw ProviderError.refundNotFound(id) }
            return nil
        }) {
            try Self.refund(try await api.get("/v1/refunds/\(segment)"), intent: nil)
        }
    }

    /// A Stripe Refund as the service sees it; an unknown status says nothing we can act on.
    static func refund(_ object: StripeObject.Refund, intent: String?) throws -> ProviderRefund {
        guard let status = object.status.flatMap(ProviderRefundStatus.init(rawValue:)) else {
            throw ProviderError.providerUnavailable
        }
        return ProviderRefund(
            id: object.id, paymentIntentId: object.paymentIntent ?? intent ?? "", amount: object.amount,
            currency: object.currency.uppercased(), status: status, failureReason: object.failureReason)
    }
}
