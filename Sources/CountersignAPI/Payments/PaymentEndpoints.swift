extension Endpoint {
    /// `POST /webhooks/payments`: signed events from the payment provider.
    package static let paymentWebhook = Endpoint(.post, "/webhooks/payments")
    /// `GET /sim/pay/{intentId}`: the payment simulator's hosted page, for the payer's browser.
    package static let simulatedPaymentPage = Endpoint(.get, "/sim/pay/{intentId}")
    /// `POST /sim/pay/{intentId}/authorize`: the payer approves the simulated payment.
    package static let authorizeSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/authorize")
    /// `POST /sim/pay/{intentId}/fail`: the payer fails the simulated payment.
    package static let failSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/fail")
}
