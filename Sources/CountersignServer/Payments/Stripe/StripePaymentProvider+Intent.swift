import CountersignCore

extension StripePaymentProvider {
    /// A Stripe PaymentIntent as the service sees it: the amount stays in minor units, the
    /// currency upper-case, our order from `metadata[order_id]`, the redirect from
    /// `next_action.redirect_to_url.url`, and the last failure in the simulator's codes.
    static func intent(_ object: StripeObject.PaymentIntent) throws -> ProviderPaymentIntent {
        guard let status = status(object.status) else { throw ProviderError.providerUnavailable }
        let method = object.paymentMethodTypes.first.flatMap(PaymentMethodKind.init(rawValue:)) ?? .card
        return ProviderPaymentIntent(
            id: object.id, amount: object.amount, currency: object.currency.uppercased(), status: status,
            method: method,
            paymentMethodId: method == .card ? object.paymentMethod : nil,
            redirectURL: status == .requiresAction ? object.nextAction?.redirectToURL?.url : nil,
            lastPaymentError: object.lastPaymentError?.paymentError, orderId: object.metadata?["order_id"] ?? ""
        )
    }

    /// Stripe's status in ours. This provider confirms at creation and captures automatically, so
    /// `requires_confirmation` and `requires_capture` should never appear; if one does, the payment
    /// is neither taken nor free to retry, so the order is kept pending (`processing`).
    static func status(_ stripe: String) -> ProviderIntentStatus? {
        if let known = ProviderIntentStatus(rawValue: stripe) { return known }
        return ["requires_confirmation", "requires_capture"].contains(stripe) ? .processing : nil
    }
}
