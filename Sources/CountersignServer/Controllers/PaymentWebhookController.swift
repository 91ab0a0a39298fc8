import CountersignAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/webhooks/payments`: events from the payment provider, signed with the shared secret.
package struct PaymentWebhookController {
    let marketplace: MarketplaceService
    let signature: WebhookSignature
    let clock: WallClock

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("payments", use: receive)
    }

    /// `POST /webhooks/payments` with `Countersign-Signature` → 200 `{"received": true}`; 400 for a bad
    /// or stale signature or body, and nothing changes. The order is refreshed from the provider.
    @Sendable func receive(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.bodyBytes(context: context)
        let bytes = Array(body.readableBytesView)
        try signature.verify(header: request.headers[.countersignSignature], body: bytes, nowMillis: clock.nowMillis())
        let event = try JSONBody.decode(PaymentWebhookEvent.self, from: body)
        try await marketplace.handleWebhook(event)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: #"{"received":true}"#)))
    }
}

extension HTTPField.Name {
    static let countersignSignature = Self("Countersign-Signature")!
}
