import Foundation

/// A PaymentMethod held by the fake: a card attached from one of Stripe's test tokens, or the
/// iDEAL / Bancontact method an intent's `payment_method_data` created.
struct FakePaymentMethod: Sendable, Equatable {
    /// What confirming a payment with it does, as Stripe's test cards document.
    enum Behaviour: Sendable, Equatable {
        case succeeds
        /// 3-D Secure or a bank redirect: `requires_action` until a test hook answers.
        case redirects
        /// 402 `card_declined` with this `decline_code` and message.
        case declines(code: String, message: String)
    }

    /// Stripe's decline test cards cannot be attached to a customer: attaching one is itself a
    /// 402 `card_declined` with this `decline_code` (Stripe's testing docs, "Declined payments").
    static let refusedAtAttach: [String: (declineCode: String, message: String)] = [
        "pm_card_chargeDeclined": ("generic_decline", "Your card was declined."),
        "pm_card_chargeDeclinedInsufficientFunds": ("insufficient_funds", "Your card has insufficient funds."),
    ]

    /// Stripe's test PaymentMethod tokens: what attaching one creates.
    static let testTokens: [String: (brand: String, last4: String, behaviour: Behaviour)] = [
        "pm_card_visa": ("visa", "4242", .succeeds),
        "pm_card_mastercard": ("mastercard", "4444", .succeeds),
        "pm_card_authenticationRequired": ("visa", "3184", .redirects),
        // Attaches, then every charge fails ("Decline after attaching").
        "pm_card_chargeCustomerFail": (
            "visa", "0341", .declines(code: "generic_decline", message: "Your card was declined.")
        ),
    ]

    let id: String
    let type: String
    var customer: String?
    let brand: String?
    let last4: String?
    let behaviour: Behaviour
    let billingName: String?
    let created: Int64

    var json: FakeJSON {
        var object: [String: FakeJSON] = [
            "id": .string(id), "object": "payment_method", "type": .string(type), "customer": .optional(customer),
            "created": .int(created),
            "livemode": false, "billing_details": ["name": .optional(billingName)], "metadata": [:],
        ]
        if let brand, let last4 {
            object["card"] = [
                "brand": .string(brand), "last4": .string(last4), "exp_month": 12,
                "exp_year": .int(Int64(FakeStripe.cardExpiryYear)), "funding": "credit",
            ]
        } else {
            object[type] = [:]
        }
        return .object(object)
    }
}

/// A PaymentIntent held by the fake.
struct FakePaymentIntent: Sendable, Equatable {
    let id: String
    let amount: Int64
    let currency: String
    var status: String
    let paymentMethodTypes: [String]
    let customer: String?
    var paymentMethod: String?
    let metadata: [String: String]
    let returnURL: String?
    var nextAction: FakeJSON = .null
    var lastPaymentError: FakeJSON = .null
    var cancellationReason: String?
    let created: Int64

    var json: FakeJSON {
        [
            "id": .string(id), "object": "payment_intent", "amount": .int(amount),
            "amount_received": .int(status == "succeeded" ? amount : 0),
            "currency": .string(currency), "status": .string(status),
            "payment_method_types": .array(paymentMethodTypes.map(FakeJSON.string)),
            "customer": .optional(customer), "payment_method": .optional(paymentMethod),
            "metadata": .object(metadata.mapValues(FakeJSON.string)),
            "next_action": nextAction, "last_payment_error": lastPaymentError,
            "cancellation_reason": .optional(cancellationReason),
            "capture_method": "automatic", "confirmation_method": "automatic",
            "client_secret": .string(id + "_secret_fake"),
            "livemode": false, "created": .int(created),
        ]
    }

    /// `next_action` for a redirect: to `url` and back to the return URL; without one Stripe can
    /// only hand the action to its own SDK.
    mutating func requireAction(redirectTo url: String) {
        status = "requires_action"
        nextAction =
            returnURL.map {
                ["type": "redirect_to_url", "redirect_to_url": ["url": .string(url), "return_url": .string($0)]]
            }
            ?? ["type": "use_stripe_sdk", "use_stripe_sdk": ["type": "three_d_secure_redirect"]]
    }
}
