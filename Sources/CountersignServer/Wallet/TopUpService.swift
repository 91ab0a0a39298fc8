import CountersignAPI
import CountersignCore
import CountersignStore
import Foundation
import Logging
import WebAuthn

/// Airtime top-ups paid from the wallet (and optionally cashback), authorized by a verification
/// token bound to the same intent, by the passkey's assertion over that intent's challenge, or by
/// the PIN.
package struct TopUpService: Sendable {
    let database: any Database
    /// The token-or-PIN check, its allowance and the spending limits, shared with marketplace
    /// orders paid from the wallet.
    let authorizer: PaymentAuthorizer
    let intents: IntentValidator
    let supplier: any AirtimeSupplier
    let clock: WallClock
    let logger: Logger
    let metrics: ServerMetrics
    /// This process: the owner its idempotency claims record.
    let instance: ServerInstance

    typealias Authorization = PaymentAuthorizer.Authorization

    /// Checks the request's shape; throws 400 before anything is claimed or written.
    func validate(_ request: TopUpRequest) throws(APIError) -> (PaymentIntent, PaymentAuthorizer.Factor) {
        let intent = try intents.airtime(
            amount: request.amount, productCode: request.productCode, recipientPhone: request.recipientPhone,
            supplierSlug: request.supplierSlug)
        // Checked here, with the rest of the shape, before any lock or state is consulted.
        let factor = try PaymentAuthorizer.factor(
            verificationToken: request.verificationToken, assertion: request.assertion, pin: request.pin)
        return (intent, factor)
    }

    /// Authorizes and executes one top-up. With `idempotency`, the key is claimed in the debit's
    /// transaction and completed with the response in the settlement's, the same commits as the
    /// money; `IdempotencyKeyTaken` if another request holds it by then. Without
    /// `countingRefusals`, a refusal is left for the caller to count (it may turn out a replay).
    func topUp(
        userId: String, intent: PaymentIntent, factor: PaymentAuthorizer.Factor, useCashback: Bool,
        session: LiveSession? = nil, idempotency: IdempotencyTicket? = nil, countingRefusals: Bool = true
    ) async throws -> SettledTopUp {
        do {
            let settled = try await authorizedTopUp(
                userId: userId, intent: intent, factor: factor, useCashback: useCashback, session: session,
                idempotency: idempotency)
            metrics.payment(kind: "topup", outcome: settled.response.data.status)
            return settled
        } catch let refused as APIError {
            if countingRefusals { metrics.payment(kind: "topup", outcome: refused.code.rawValue) }
            throw refused
        }
    }

    private func authorizedTopUp(
        userId: String, intent: PaymentIntent, factor: PaymentAuthorizer.Factor, useCashback: Bool,
        session: LiveSession?, idempotency: IdempotencyTicket?
    ) async throws -> SettledTopUp {
        let (authorization, user) = try await authorizer.authorize(
            userId: userId, intent: intent, factor: factor, session: session)
        let pending: WalletTransaction
        do {
            pending = try await debit(
                userId: userId, intent: intent, useCashback: useCashback, authorization: authorization,
                clearFailures: user.failedPaymentAuths > 0, idempotency: idempotency
            )
        } catch {
            throw try await authorizer.refusal(for: error)
        }
        let order = AirtimeOrder(
            transactionId: pending.id, network: AirtimeNetwork(rawValue: intent.supplierSlug) ?? .mtn,
            recipientPhone: intent.recipientPhone, amount: intent.amount, currency: intent.currency
        )
        let outcome: AirtimeOutcome
        do {
            outcome = try await supplier.purchase(order)
        } catch {
            logger.error("supplier call failed", metadata: ["transaction": "\(pending.id)", "error": "\(error)"])
            outcome = .failed(code: "supplier_unavailable", message: "The supplier could not be reached.")
        }
        return try await settle(pending, outcome: outcome)
    }

}

/// A settled top-up's answer and its JSON, encoded once for the client and for replays.
package struct SettledTopUp: Sendable {
    package let response: TopUpResponse
    package let json: String
}

/// The idempotency key a top-up claims in the database transaction of its debit.
package struct IdempotencyTicket: Sendable {
    package let key: String
    /// The request's fingerprint (`IdempotentRequest.fingerprint`).
    package let requestHash: String
    /// The server instance running the request (`ServerInstance.id`).
    package let owner: String
}

/// The debit found its idempotency key taken (a concurrent retry won the race, or one finished
/// meanwhile) and moved nothing; `claim` says what the store knows of the key.
package struct IdempotencyKeyTaken: Error {
    package let claim: IdempotencyClaim
}

extension TopUpResponse {
    /// The JSON stored for replays and sent to the client.
    package static func encodedForReplay(_ response: TopUpResponse) -> String {
        String(decoding: response.jsonBytes(), as: UTF8.self)
    }
}
