extension Endpoint {
    /// Starts a transfer.
    package static let createTransfer = Endpoint(.post, "/transfers")
    /// The transfer as it stands.
    package static let transfer = Endpoint(.get, "/transfers/{id}")
    /// The transfer's server-sent events.
    package static let transferEvents = Endpoint(.get, "/transfers/{id}/events")
    /// The payer's signature over the quote.
    package static let authorizeTransfer = Endpoint(.post, "/transfers/{id}/authorization")
    /// The payer refuses the fees.
    package static let declineTransfer = Endpoint(.post, "/transfers/{id}/decline")
    /// The payer abandons the transfer.
    package static let cancelTransfer = Endpoint(.post, "/transfers/{id}/cancel")
}
