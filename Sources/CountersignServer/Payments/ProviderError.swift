import CountersignAPI

/// A request a payment provider refused, with a stable code (whose status `ErrorCode.status`
/// gives). A declined payment is not one of these: it is an intent back in `requires_payment_method`.
package struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    package let code: ErrorCode
    package let message: String

    /// 404: no intent with this id.
    package static func intentNotFound(_ id: String) -> ProviderError {
        ProviderError(code: .paymentIntentNotFound, message: "No payment intent \(id).")
    }

    /// 404: no refund with this id.
    package static func refundNotFound(_ id: String) -> ProviderError {
        ProviderError(code: .refundNotFound, message: "No refund \(id).")
    }

    /// 409: a simulated refund that has ended already.
    package static let refundNotPending = ProviderError(
        code: .refundNotPending, message: "The refund has ended already; nothing changed.")

    /// 404: no saved card with this id.
    package static func paymentMethodNotFound(_ id: String) -> ProviderError {
        ProviderError(code: .paymentMethodNotFound, message: "No payment method \(id).")
    }

    /// 422 (as the API's own `idempotency_key_reused`): the idempotency key was used before with other parameters.
    package static let idempotencyKeyReused = ProviderError(
        code: .idempotencyKeyReused, message: "This idempotency key was used with different parameters."
    )

    /// 409: the intent is not in a state that allows this (e.g. authorizing a succeeded one).
    package static func unexpectedState(_ status: ProviderIntentStatus) -> ProviderError {
        ProviderError(code: .paymentIntentUnexpectedState, message: "The payment intent is \(status.rawValue).")
    }

    /// 422: not a valid card number (digits and spaces, 12 to 19 digits, Luhn check).
    package static let invalidCardNumber = ProviderError(
        code: .invalidCardNumber, message: "The card number is not valid."
    )

    /// 422: the expiry month or year is out of range, or already past.
    package static let invalidExpiry = ProviderError(
        code: .invalidExpiry, message: "The card's expiry date is not valid."
    )

    /// 422: the saved card belongs to another customer.
    package static let cardNotOwned = ProviderError(
        code: .cardNotOwned, message: "The payment method does not belong to this customer."
    )

    /// 422: a parameter is malformed; the message names it.
    package static func invalidRequest(_ message: String) -> ProviderError {
        ProviderError(code: .invalidRequest, message: message)
    }

    /// 502: the provider could not be reached, did not answer in time, refused our credentials or
    /// failed on its side. Nothing about the order changes; the same request later reaches the same
    /// intent (the idempotency key is the order's attempt). The cause is logged, not shown.
    package static let providerUnavailable = ProviderError(
        code: .paymentProviderUnavailable,
        message: "The payment provider is unavailable; the order is unchanged. Try again shortly."
    )

    /// 422: in live mode card numbers never reach this server; the app collects them with Stripe.
    package static let cardEntryNotSupported = ProviderError(
        code: .cardEntryNotSupported,
        message:
            "Card numbers are not accepted here in live mode: the app collects cards with Stripe Elements or Stripe's mobile SDK (a SetupIntent), so the number only ever goes to Stripe."
    )

    /// 422: in Stripe's test mode only the documented test numbers can be saved.
    package static let unsupportedTestCard = ProviderError(
        code: .unsupportedTestCard,
        message:
            "In Stripe test mode use a documented test card: 4242 4242 4242 4242, 4000 0027 6000 3184, 4000 0000 0000 0341 (declined at payment), 4000 0000 0000 0002 or 4000 0000 0000 9995 (both refused when saved, as Stripe does)."
    )

    /// `code: message`.
    package var description: String { "\(code): \(message)" }
}
