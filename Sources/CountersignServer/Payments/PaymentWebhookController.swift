import CountersignAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/webhooks/payments`: events from the payment provider, signed with the shared secret.
package struct PaymentWebhookController {
    let marketplace: MarketplaceService
    let fundings: FundingService
    /// `Countersign-Signature`, the simulator's events.
    let signature: WebhookSignature
    /// `Stripe-Signature`, Stripe's events; nil when no `STRIPE_WEBHOOK_SECRET` is configured.
    let stripeSignature: WebhookSignature?
    let clock: WallClock

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.paymentWebhook, use: receive)
    }

    /// `POST /webhooks/payments` with `Stripe-Signature` (Stripe) or `Countersign-Signature` (the
    /// simulator) → 200 `{"received": true}`; 400 for a bad or stale signature or body, and nothing
    /// changes. Either way the event only names an order or a wallet funding: it is refreshed from the
    /// provider.
    @Sendable func receive(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.bodyBytes(context: context)
        let bytes = Array(body.readableBytesView)
        if let header = request.headers.value(named: "Stripe-Signature") {
            guard let stripeSignature else {
                throw APIError(
                    .invalidSignature, "Stripe-Signature cannot be checked: no STRIPE_WEBHOOK_SECRET is configured.")
            }
            try stripeSignature.verify(header: header, body: bytes, nowMillis: clock.nowMillis())
        } else {
            try signature.verify(
                header: request.headers.value(named: "Countersign-Signature"), body: bytes, nowMillis: clock.nowMillis()
            )
        }
        // A signed event from the provider, not a client's text: members it holds and we never read
        // (a payer's address, an error message) may have line breaks, and a refused event would be
        // sent again for days. The one member used as text, the order id, is checked where it is read.
        let event = try JSONBody.decode(PaymentWebhookEvent.self, from: body, refusingControlCharacters: false)
        if try await !fundings.handleWebhook(event) { try await marketplace.handleWebhook(event) }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"received":true}"#)))
    }
}

extension HTTPFields {
    /// The first value of the field `name`, compared case-insensitively as HTTP does.
    fileprivate func value(named name: String) -> String? {
        first { $0.name.canonicalName == name.lowercased() }?.value
    }
}
