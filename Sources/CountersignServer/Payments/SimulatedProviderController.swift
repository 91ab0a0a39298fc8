import CountersignAPI
import Hummingbird

/// The payment simulator's hosted redirect page, where the payer answers 3-D Secure, iDEAL or
/// Bancontact: `/sim/pay/{intentId}`. Public (it is the payer's browser) and answered as HTML; it
/// moves nothing but the simulated intent.
package struct SimulatedProviderController {
    let simulator: SimulatedPaymentProvider
    /// Told of a refund the controls ended, as the provider's webhook would tell it.
    let marketplace: MarketplaceService

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.simulatedPaymentPage, use: page)
        group.on(.authorizeSimulatedPayment, use: authorize)
        group.on(.failSimulatedPayment, use: fail)
        group.on(.succeedSimulatedRefund, use: succeedRefund)
        group.on(.failSimulatedRefund, use: failRefund)
    }

    /// `POST /sim/refunds/{refundId}/succeed` → 200 the refund, `succeeded`; the order's refund
    /// settles at once (as by the provider's webhook). 404 `refund_not_found`, 409 `refund_not_pending`.
    @Sendable func succeedRefund(_ request: Request, context: AppRequestContext) async throws -> SimulatedRefund {
        try await settleRefund(context, succeeded: true)
    }

    /// `POST /sim/refunds/{refundId}/fail` → 200 the refund, `failed`; the money goes back to the seller.
    @Sendable func failRefund(_ request: Request, context: AppRequestContext) async throws -> SimulatedRefund {
        try await settleRefund(context, succeeded: false)
    }

    private func settleRefund(_ context: AppRequestContext, succeeded: Bool) async throws -> SimulatedRefund {
        let refund = try await simulator.settleRefund(
            id: try context.parameters.require("refundId"), succeeded: succeeded)
        try await marketplace.handleRefundEvent(providerRefundId: refund.id)
        return SimulatedRefund(
            id: refund.id, paymentIntentId: refund.paymentIntentId, amount: refund.amount, currency: refund.currency,
            status: refund.status.rawValue, failureReason: refund.failureReason)
    }

    /// `GET /sim/pay/{intentId}` → 200 the page: what is being paid and, while the intent
    /// requires action, two buttons (authorize, fail).
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await answer {
            let intent = try await simulator.retrievePaymentIntent(id: try context.parameters.require("intentId"))
            return HostedPaymentPage.payment(intent)
        }
    }

    /// `POST /sim/pay/{intentId}/authorize` → `succeeded`, then 303 to the return URL with
    /// `?payment_intent=<id>&redirect_status=succeeded`; 409 unless the intent requires action.
    @Sendable func authorize(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await answer {
            let (intent, returnURL) = try await simulator.authorizeRedirect(
                intentId: try context.parameters.require("intentId"))
            return HostedPaymentPage.finished(intent, returnURL: returnURL, redirectStatus: "succeeded")
        }
    }

    /// `POST /sim/pay/{intentId}/fail` → `requires_payment_method` with `payment_failed`, then 303
    /// to the return URL with `redirect_status=failed`; 409 unless the intent requires action.
    @Sendable func fail(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await answer {
            let (intent, returnURL) = try await simulator.failRedirect(
                intentId: try context.parameters.require("intentId"))
            return HostedPaymentPage.finished(intent, returnURL: returnURL, redirectStatus: "failed")
        }
    }

    /// A refusal as an HTML page for the browser, with its status and code; anything else goes on
    /// to the error middleware.
    private func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as ProviderError {
            return HostedPaymentPage.refusal(error)
        }
    }
}

extension SimulatedRefund: ResponseEncodable {}
