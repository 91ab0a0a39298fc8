extension Endpoint {
    /// Signed events from the payment provider.
    package static let paymentWebhook = Endpoint(.post, "/webhooks/payments")
    /// The payment simulator's hosted page, for the payer's browser.
    package static let simulatedPaymentPage = Endpoint(.get, "/sim/pay/{intentId}")
    /// The payer approves the simulated payment.
    package static let authorizeSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/authorize")
    /// The payer fails the simulated payment.
    package static let failSimulatedPayment = Endpoint(.post, "/sim/pay/{intentId}/fail")
}
