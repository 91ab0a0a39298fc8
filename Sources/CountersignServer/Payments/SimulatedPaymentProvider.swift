import CountersignCore
import CountersignStore
import Foundation

/// The built-in payment provider: a **simulator**, like Stripe's test mode, not a real network.
/// Its state lives in the database (`sim_cards`, `sim_payment_intents`), so it survives restarts
/// and every server process on the store shares it. Outcomes are decided by the card:
/// - `4242 4242 4242 4242`: succeeds at once;
/// - `4000 0027 6000 3184`: 3-D Secure, `requires_action` with a redirect to the hosted page;
/// - `4000 0000 0000 0002` and `4000 0000 0000 0341`: declined (`card_declined`);
/// - `4000 0000 0000 9995`: insufficient funds (`insufficient_funds`);
/// - `4000 0000 0000 5126`: succeeds, but its refunds stay `pending` until `settleRefund` ends them;
/// - any other number that passes the Luhn check: succeeds.
///
/// iDEAL and Bancontact always go to `requires_action`. The hosted page
/// (`<publicBaseURL>/sim/pay/<id>`) lets the payer authorize, fail, or walk away. Refunds succeed at
/// once (`sim_refunds`), except as said above.
package struct SimulatedPaymentProvider: PaymentProvider {
    let database: any Database
    let clock: WallClock
    /// Where payers' browsers reach this server, for the hosted page's address.
    let publicBaseURL: String

    package init(database: any Database, clock: WallClock, publicBaseURL: String) {
        self.database = database
        self.clock = clock
        self.publicBaseURL = publicBaseURL
    }

    package func createPaymentIntent(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String?, customerId: String?,
        orderId: String, returnURL: String?, idempotencyKey: String
    ) async throws -> ProviderPaymentIntent {
        let request = try SimulatedIntentRequest(
            amount: amount, currency: currency, method: method, paymentMethodId: paymentMethodId,
            customerId: customerId,
            orderId: orderId, returnURL: returnURL, idempotencyKey: idempotencyKey
        )
        let (id, now) = (Identifier.make("pi"), clock.nowMillis())
        let row = try await database.transaction { sql -> SQLRow? in
            if let existing = try await Self.intentRow(idempotencyKey: request.idempotencyKey, on: sql) {
                return existing
            }
            let (status, failure) = try await request.confirmation(on: sql)
            let inserted = try await sql.first(
                """
                INSERT INTO sim_payment_intents (id, idempotency_key, amount, currency, method, payment_method_id, customer_id, order_id,
                    return_url, status, error_code, error_message, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
                ON CONFLICT (idempotency_key) DO NOTHING RETURNING *
                """,
                [
                    .text(id), .text(request.idempotencyKey), .integer(request.amount), .text(request.currency),
                    .text(request.method.rawValue),
                    .text(request.paymentMethodId), .text(request.customerId), .text(request.orderId),
                    .text(request.returnURL),
                    .text(status.rawValue), .text(failure?.code), .text(failure?.message), .integer(now),
                ]
            )
            // A concurrent create with the same key committed first (PostgreSQL waits for it): that one stands.
            guard let inserted else { return try await Self.intentRow(idempotencyKey: request.idempotencyKey, on: sql) }
            return inserted
        }
        guard let row else { throw DatabaseError.engine("payment intent vanished after an idempotency conflict") }
        guard try SimulatedIntentRequest(row: row) == request else { throw ProviderError.idempotencyKeyReused }
        return try intent(from: row)
    }

    package func retrievePaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        guard
            let row = try await database.read({ sql in
                try await sql.first("SELECT * FROM sim_payment_intents WHERE id = $1", [.text(id)])
            })
        else {
            throw ProviderError.intentNotFound(id)
        }
        return try intent(from: row)
    }

    package func cancelPaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        try await move(
            id: id, from: [.requiresPaymentMethod, .requiresAction, .processing], to: .canceled, failure: nil
        ).intent
    }

    package func addCard(customerId: String, number: String, expMonth: Int, expYear: Int) async throws -> SavedCard {
        guard let card = TestCard(number: number) else { throw ProviderError.invalidCardNumber }
        try CardExpiry.check(month: expMonth, year: expYear, nowMillis: clock.nowMillis())
        guard !customerId.isEmpty else { throw ProviderError.invalidRequest("customerId is empty.") }
        let saved = SavedCard(
            id: Identifier.make("pm"), brand: card.brand, last4: card.last4, expMonth: expMonth, expYear: expYear)
        let createdAt = clock.nowMillis()
        try await database.transaction { sql in
            try await sql.execute(
                "INSERT INTO sim_cards (id, customer_id, brand, last4, exp_month, exp_year, outcome, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    .text(saved.id), .text(customerId), .text(saved.brand), .text(saved.last4), .int(expMonth),
                    .int(expYear), .text(card.outcome.rawValue), .integer(createdAt),
                ]
            )
        }
        return saved
    }

    package func listCards(customerId: String) async throws -> [SavedCard] {
        try await database.read { sql in
            try await sql.query(
                "SELECT * FROM sim_cards WHERE customer_id = $1 ORDER BY created_at, id", [.text(customerId)]
            ).map { row in
                SavedCard(
                    id: try row.string("id"), brand: try row.string("brand"), last4: try row.string("last4"),
                    expMonth: Int(try row.int("exp_month")), expYear: Int(try row.int("exp_year"))
                )
            }
        }
    }

    static func intentRow(idempotencyKey: String, on sql: any SQLExecutor) async throws -> SQLRow? {
        try await sql.first("SELECT * FROM sim_payment_intents WHERE idempotency_key = $1", [.text(idempotencyKey)])
    }
}
