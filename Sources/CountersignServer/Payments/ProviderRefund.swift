/// Where a provider's refund stands (Stripe's `Refund.status`). Only `succeeded` returned money to
/// the payer; `failed` and `canceled` returned none.
package enum ProviderRefundStatus: String, Sendable, Equatable, CaseIterable {
    /// The provider is still working on it (or waits for the payer's bank).
    case pending
    /// The money went back to the payer.
    case succeeded
    /// The provider could not return it (e.g. the card was closed).
    case failed
    /// Canceled before it was sent.
    case canceled
    /// Stripe's `requires_action`: for our purposes it has not settled.
    case requiresAction = "requires_action"

    /// Whether the outcome is final.
    package var isFinal: Bool { self == .succeeded || self == .failed || self == .canceled }
}

/// A refund of (part of) a payment intent, as a provider reports it.
package struct ProviderRefund: Sendable, Equatable {
    package let id: String
    package let paymentIntentId: String
    /// In minor units.
    package let amount: Int64
    package let currency: String
    package let status: ProviderRefundStatus
    /// Why it failed (Stripe's `failure_reason`), when it did.
    package let failureReason: String?

    package init(
        id: String, paymentIntentId: String, amount: Int64, currency: String, status: ProviderRefundStatus,
        failureReason: String?
    ) {
        (self.id, self.paymentIntentId, self.amount, self.currency) = (id, paymentIntentId, amount, currency)
        (self.status, self.failureReason) = (status, failureReason)
    }
}
