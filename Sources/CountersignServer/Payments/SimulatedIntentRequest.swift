import CountersignCore
import CountersignStore

/// The parameters of a create, checked; what an idempotency key is bound to. A retry with the
/// same key must match the stored intent on every field, or it is refused.
struct SimulatedIntentRequest: Sendable, Equatable {
    let amount: Int64
    let currency: String
    let method: PaymentMethodKind
    let paymentMethodId: String?
    let customerId: String?
    let orderId: String
    let returnURL: String?
    let idempotencyKey: String

    init(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String?, customerId: String?,
        orderId: String, returnURL: String?, idempotencyKey: String
    ) throws {
        guard amount > 0 else { throw ProviderError.invalidRequest("amount must be positive.") }
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ProviderError.invalidRequest("currency must be a three-letter ISO 4217 code.")
        }
        guard !orderId.isEmpty else { throw ProviderError.invalidRequest("orderId is empty.") }
        guard (1...255).contains(idempotencyKey.utf8.count) else {
            throw ProviderError.invalidRequest("idempotencyKey must be 1 to 255 bytes.")
        }
        guard method == .card || paymentMethodId == nil else {
            throw ProviderError.invalidRequest("paymentMethodId is only for card payments.")
        }
        self.amount = amount
        self.currency = currency.uppercased()
        self.method = method
        self.paymentMethodId = paymentMethodId
        self.customerId = customerId
        self.orderId = orderId
        self.returnURL = returnURL
        self.idempotencyKey = idempotencyKey
    }

    /// The request a stored intent was created with.
    init(row: SQLRow) throws {
        guard let method = PaymentMethodKind(rawValue: try row.string("method")) else {
            throw DatabaseError.decoding(column: "method")
        }
        self.amount = try row.int("amount")
        self.currency = try row.string("currency")
        self.method = method
        self.paymentMethodId = try row.optionalString("payment_method_id")
        self.customerId = try row.optionalString("customer_id")
        self.orderId = try row.string("order_id")
        self.returnURL = try row.optionalString("return_url")
        self.idempotencyKey = try row.string("idempotency_key")
    }

    /// Confirms at creation, as Stripe's `confirm=true`: where the new intent stands and why.
    func confirmation(on sql: any SQLExecutor) async throws -> (ProviderIntentStatus, ProviderPaymentError?) {
        guard method == .card else { return (.requiresAction, nil) }
        guard let paymentMethodId else { return (.requiresPaymentMethod, nil) }
        guard
            let card = try await sql.first(
                "SELECT customer_id, outcome FROM sim_cards WHERE id = $1", [.text(paymentMethodId)])
        else {
            throw ProviderError.paymentMethodNotFound(paymentMethodId)
        }
        guard let customerId, try card.string("customer_id") == customerId else { throw ProviderError.cardNotOwned }
        switch TestCard.Outcome(rawValue: try card.string("outcome")) {
        case .succeeds, .refundStaysPending: return (.succeeded, nil)
        case .requiresAuthentication: return (.requiresAction, nil)
        case .declined:
            return (
                .requiresPaymentMethod, ProviderPaymentError(code: "card_declined", message: "Your card was declined.")
            )
        case .insufficientFunds:
            return (
                .requiresPaymentMethod,
                ProviderPaymentError(code: "insufficient_funds", message: "Your card has insufficient funds.")
            )
        case nil: throw DatabaseError.decoding(column: "outcome")
        }
    }
}
