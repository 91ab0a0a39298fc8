import CountersignCore

/// Where a provider's payment intent stands (Stripe's `PaymentIntent.status`).
package enum ProviderIntentStatus: String, Sendable, Equatable, CaseIterable {
    /// No payment method yet, or the last attempt failed (see `lastPaymentError`).
    case requiresPaymentMethod = "requires_payment_method"
    /// The payer must act on `redirectURL` (3-D Secure, iDEAL, Bancontact).
    case requiresAction = "requires_action"
    /// The provider is still working on it.
    case processing
    /// Paid.
    case succeeded
    /// Canceled before it succeeded; nothing was taken.
    case canceled
}

/// Why the last attempt on an intent failed (Stripe's `last_payment_error`).
package struct ProviderPaymentError: Sendable, Equatable {
    /// A stable code: `card_declined`, `insufficient_funds`, `payment_failed`.
    package let code: String
    package let message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// A payment intent as a provider reports it.
package struct ProviderPaymentIntent: Sendable, Equatable {
    package let id: String
    /// In minor units.
    package let amount: Int64
    package let currency: String
    package let status: ProviderIntentStatus
    package let method: PaymentMethodKind
    /// The saved card it was confirmed with, for a card payment.
    package let paymentMethodId: String?
    /// Where to send the payer (`next_action.redirect_to_url`); set only in `requires_action`.
    package let redirectURL: String?
    package let lastPaymentError: ProviderPaymentError?
    /// Our order, kept in the intent's metadata.
    package let orderId: String
}
