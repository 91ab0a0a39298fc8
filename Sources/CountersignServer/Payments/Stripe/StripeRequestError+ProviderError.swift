import CountersignAPI

extension StripeRequestError {
    /// Stripe's refusal as the service sees it. Anything that says nothing about the payment itself
    /// (our key refused, rate limits, a concurrent request with the same idempotency key, Stripe's
    /// own failures) is `providerUnavailable`: the order stays as it is and a retry is safe.
    var providerError: ProviderError {
        switch status {
        case 400 where failure.type == "idempotency_error":
            return .idempotencyKeyReused
        case 400:
            return .invalidRequest(failure.message ?? "Stripe refused the request.")
        case 402:
            // A card refused when saved: insufficient funds is told apart, every other reason
            // (`expired_card`, `incorrect_cvc`, …) is `card_declined`, with Stripe's message saying which.
            let refusal = failure.paymentError
            let code: ErrorCode =
                refusal.code == ErrorCode.insufficientFunds.rawValue ? .insufficientFunds : .cardDeclined
            return ProviderError(code: code, message: refusal.message)
        case 404:
            return ProviderError(code: .resourceMissing, message: failure.message ?? "Stripe has no such object.")
        default:
            return .providerUnavailable
        }
    }
}

extension StripeObject.Failure {
    /// The stable code and message an order records for a failed attempt, in the simulator's
    /// vocabulary: insufficient funds is told apart; every other decline is `card_declined` (Stripe
    /// advises not telling a payer `lost_card` or `fraudulent`); a failed redirect is `payment_failed`;
    /// Stripe's other codes (`expired_card`, `incorrect_cvc`, …) are stable and kept.
    var paymentError: ProviderPaymentError {
        let stable: String
        switch (code, declineCode) {
        case ("card_declined", "insufficient_funds"?): stable = "insufficient_funds"
        case ("card_declined", _): stable = "card_declined"
        case ("payment_intent_authentication_failure", _), ("payment_intent_payment_attempt_failed", _), (nil, _):
            stable = "payment_failed"
        case (let other?, _): stable = other
        }
        return ProviderPaymentError(code: stable, message: message ?? "The payment failed.")
    }
}
