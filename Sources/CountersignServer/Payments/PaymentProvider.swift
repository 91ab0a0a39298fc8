import CountersignCore

/// A payment provider, modelled on Stripe's PaymentIntents: an intent is created (and, with a
/// payment method, confirmed at once), may need the payer to act on a redirect, and ends
/// `succeeded` or `canceled`. A failed attempt returns it to `requires_payment_method` with
/// `lastPaymentError`: a declined card is an outcome, not a thrown error.
package protocol PaymentProvider: Sendable {
    /// Creates and confirms an intent for `orderId`. The same `idempotencyKey` returns the same
    /// intent, never a second one; the same key with other parameters throws
    /// `ProviderError.idempotencyKeyReused`. A card payment needs `paymentMethodId`, a saved card
    /// of `customerId`; `returnURL` is where a redirect sends the payer back.
    func createPaymentIntent(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String?, customerId: String?,
        orderId: String, returnURL: String?, idempotencyKey: String
    ) async throws -> ProviderPaymentIntent

    /// The intent as the provider has it now.
    func retrievePaymentIntent(id: String) async throws -> ProviderPaymentIntent

    /// Cancels an intent that has not succeeded; throws `ProviderError.unexpectedState` otherwise.
    func cancelPaymentIntent(id: String) async throws -> ProviderPaymentIntent

    /// Saves a card for `customerId`; throws for an invalid number or expiry.
    func addCard(customerId: String, number: String, expMonth: Int, expYear: Int) async throws -> SavedCard

    /// The customer's saved cards, oldest first.
    func listCards(customerId: String) async throws -> [SavedCard]

    /// Refunds `amount` (minor units) of a succeeded intent. The same `idempotencyKey` returns the
    /// same refund, never a second one. The refund may settle later (`pending`): its outcome comes
    /// by webhook or by `retrieveRefund`.
    func createRefund(paymentIntentId: String, amount: Int64, idempotencyKey: String) async throws -> ProviderRefund

    /// The refund as the provider has it now.
    func retrieveRefund(id: String) async throws -> ProviderRefund

    /// Whether a payment by `method` needs a `returnURL` before it starts: a redirect this
    /// provider may ask for must have somewhere to bring the payer back to.
    func requiresReturnURL(_ method: PaymentMethodKind) -> Bool
}

extension PaymentProvider {
    /// By default none does: a provider with its own page can end there.
    package func requiresReturnURL(_ method: PaymentMethodKind) -> Bool { false }
}
