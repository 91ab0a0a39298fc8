/// The parts of Stripe's API objects this provider reads (API version `StripeConfiguration.apiVersion`).
/// Keys are spelled out: a key strategy would also rewrite metadata keys.
enum StripeObject {
    /// A PaymentIntent.
    struct PaymentIntent: Decodable, Sendable, Equatable {
        struct NextAction: Decodable, Sendable, Equatable {
            struct RedirectToURL: Decodable, Sendable, Equatable {
                let url: String?
                let returnURL: String?
                enum CodingKeys: String, CodingKey { case url, returnURL = "return_url" }
            }
            /// `redirect_to_url`, or `use_stripe_sdk` when no return URL was given.
            let type: String
            let redirectToURL: RedirectToURL?
            enum CodingKeys: String, CodingKey { case type, redirectToURL = "redirect_to_url" }
        }

        let id: String
        let status: String
        let amount: Int64
        let currency: String
        let paymentMethodTypes: [String]
        let paymentMethod: String?
        let metadata: [String: String]?
        let nextAction: NextAction?
        let lastPaymentError: Failure?

        enum CodingKeys: String, CodingKey {
            case id, status, amount, currency, metadata
            case paymentMethodTypes = "payment_method_types", paymentMethod = "payment_method"
            case nextAction = "next_action", lastPaymentError = "last_payment_error"
        }
    }

    /// A Customer.
    struct Customer: Decodable, Sendable, Equatable {
        let id: String
    }

    /// A PaymentMethod; `card` for type `card`.
    struct PaymentMethod: Decodable, Sendable, Equatable {
        struct Card: Decodable, Sendable, Equatable {
            let brand: String
            let last4: String
            let expMonth: Int
            let expYear: Int
            enum CodingKeys: String, CodingKey { case brand, last4, expMonth = "exp_month", expYear = "exp_year" }
        }
        let id: String
        let type: String
        let customer: String?
        let card: Card?
    }

    /// A page of a list endpoint.
    struct List<Element: Decodable & Sendable>: Decodable, Sendable {
        let data: [Element]
        let hasMore: Bool
        enum CodingKeys: String, CodingKey { case data, hasMore = "has_more" }
    }

    /// Stripe's error object: the body of every 4xx/5xx (`{"error": {…}}`) and an intent's
    /// `last_payment_error`. A card error on confirm carries the intent it left behind.
    struct Failure: Decodable, Sendable, Equatable {
        /// `card_error`, `invalid_request_error`, `idempotency_error`, `api_error`.
        let type: String
        let code: String?
        let declineCode: String?
        let message: String?
        let param: String?
        /// Boxed: an intent's `last_payment_error` is itself an error.
        let paymentIntent: Box?

        enum CodingKeys: String, CodingKey {
            case type, code, message, param
            case declineCode = "decline_code", paymentIntent = "payment_intent"
        }
    }

    /// The envelope of an error response.
    struct ErrorBody: Decodable, Sendable {
        let error: Failure
    }

    /// Breaks the PaymentIntent ↔ error recursion.
    final class Box: Decodable, Sendable, Equatable {
        let intent: PaymentIntent
        init(from decoder: any Decoder) throws { intent = try PaymentIntent(from: decoder) }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs.intent == rhs.intent }
    }
}
