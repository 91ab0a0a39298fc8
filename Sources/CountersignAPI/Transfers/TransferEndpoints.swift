extension Endpoint {
    /// `POST /transfers`: starts a transfer.
    package static let createTransfer = Endpoint(.post, "/transfers")
    /// `GET /transfers/{id}`: the transfer as it stands.
    package static let transfer = Endpoint(.get, "/transfers/{id}")
    /// `GET /transfers/{id}/events`: the transfer's server-sent events.
    package static let transferEvents = Endpoint(.get, "/transfers/{id}/events")
    /// `POST /transfers/{id}/authorization`: the payer's signature over the quote.
    package static let authorizeTransfer = Endpoint(.post, "/transfers/{id}/authorization")
    /// `POST /transfers/{id}/decline`: the payer refuses the fees.
    package static let declineTransfer = Endpoint(.post, "/transfers/{id}/decline")
    /// `POST /transfers/{id}/cancel`: the payer abandons the transfer.
    package static let cancelTransfer = Endpoint(.post, "/transfers/{id}/cancel")
}
