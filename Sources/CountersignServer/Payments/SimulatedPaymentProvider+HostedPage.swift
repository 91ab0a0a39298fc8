import CountersignAPI
import CountersignStore
import Foundation

/// What the hosted redirect page does to an intent: the payer's answer to 3-D Secure, iDEAL or
/// Bancontact. It moves nothing but the simulated intent.
extension SimulatedPaymentProvider {
    /// The hosted page of an intent: `<publicBaseURL>/sim/pay/<id>`.
    package func redirectURL(intentId: String) -> String {
        publicBaseURL + Endpoint.simulatedPaymentPage.path([intentId])
    }

    /// The payer authorized: `requires_action` → `succeeded`. Returns the intent and its return URL.
    package func authorizeRedirect(intentId: String) async throws -> (intent: ProviderPaymentIntent, returnURL: String?)
    {
        try await move(id: intentId, from: [.requiresAction], to: .succeeded, failure: nil)
    }

    /// The payer failed it: `requires_action` → `requires_payment_method` with `payment_failed`.
    package func failRedirect(intentId: String) async throws -> (intent: ProviderPaymentIntent, returnURL: String?) {
        let failure = ProviderPaymentError(code: "payment_failed", message: "The payment was not authorized.")
        return try await move(id: intentId, from: [.requiresAction], to: .requiresPaymentMethod, failure: failure)
    }

    /// Moves the intent in one conditional UPDATE, so two racing answers cannot both apply; throws
    /// `unexpectedState` (nothing changed) if it is in none of `from`.
    func move(
        id: String, from: Set<ProviderIntentStatus>, to status: ProviderIntentStatus, failure: ProviderPaymentError?
    ) async throws -> (intent: ProviderPaymentIntent, returnURL: String?) {
        let sources = from.map(\.rawValue).sorted()
        let placeholders = sources.indices.map { "$\($0 + 6)" }.joined(separator: ", ")
        let now = clock.nowMillis()
        let (updated, current) = try await database.transaction { sql in
            let updated = try await sql.first(
                """
                UPDATE sim_payment_intents SET status = $2, error_code = $3, error_message = $4, updated_at = $5
                WHERE id = $1 AND status IN (\(placeholders)) RETURNING *
                """,
                [.text(id), .text(status.rawValue), .text(failure?.code), .text(failure?.message), .integer(now)]
                    + sources.map { .text($0) }
            )
            if updated != nil { return (updated, nil as SQLRow?) }
            return (nil as SQLRow?, try await sql.first("SELECT * FROM sim_payment_intents WHERE id = $1", [.text(id)]))
        }
        if let updated { return (try intent(from: updated), try updated.optionalString("return_url")) }
        guard let current else { throw ProviderError.intentNotFound(id) }
        throw ProviderError.unexpectedState(try intent(from: current).status)
    }

    /// A stored intent as the provider reports it.
    func intent(from row: SQLRow) throws -> ProviderPaymentIntent {
        let request = try SimulatedIntentRequest(row: row)
        guard let status = ProviderIntentStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        let id = try row.string("id")
        let failure = try row.optionalString("error_code").map {
            ProviderPaymentError(code: $0, message: try row.optionalString("error_message") ?? "")
        }
        return ProviderPaymentIntent(
            id: id, amount: request.amount, currency: request.currency, status: status, method: request.method,
            paymentMethodId: request.paymentMethodId,
            redirectURL: status == .requiresAction ? redirectURL(intentId: id) : nil,
            lastPaymentError: failure, orderId: request.orderId
        )
    }
}
