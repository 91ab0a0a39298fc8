extension Endpoint {
    /// Signed events from the payment provider.
    package static let paymentWebhook = Endpoint(.post, "/webhooks/payments")
    /// The payment simulator's hosted page, for the payer's browser.
    package static let simulatedPaymentPage = Endpoint(.get, "/sim/pay/{intentId}")
    /// The payer approves the simulated payment.
    package static let authorizeSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/authorize")
    /// The payer fails the simulated payment.
    package static let failSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/fail")
    /// The bank returns a pending simulated refund to the payer.
    package static let succeedSimulatedRefund = Endpoint(.post, "/sim/refunds/{refundId}/succeed")
    /// The bank cannot return a pending simulated refund.
    package static let failSimulatedRefund = Endpoint(.post, "/sim/refunds/{refundId}/fail")
}

/// `POST /sim/refunds/{refundId}/succeed|fail`: the simulated refund after the bank's answer.
public struct SimulatedRefund: Codable, Sendable, Equatable {
    public var id: String
    public var paymentIntentId: String
    /// Minor units.
    public var amount: Int64
    public var currency: String
    /// `succeeded` or `failed`.
    public var status: String
    /// Why it failed, when it did.
    public var failureReason: String?

    /// A simulated refund.
    public init(
        id: String, paymentIntentId: String, amount: Int64, currency: String, status: String, failureReason: String?
    ) {
        (self.id, self.paymentIntentId, self.amount, self.currency) = (id, paymentIntentId, amount, currency)
        (self.status, self.failureReason) = (status, failureReason)
    }
}
