extension Endpoint {
    /// Buys airtime.
    package static let topUp = Endpoint(.post, "/user/topup")
    /// The balances.
    package static let wallet = Endpoint(.get, "/user/wallet")
    /// One page of history.
    package static let listTransactions = Endpoint(.get, "/user/transactions")
}

extension Endpoint {
    /// Adds money to a wallet by card or bank through the payment provider.
    package static let createFunding = Endpoint(.post, "/wallet/fundings")
    /// Where a funding stands, asked of the provider while it is pending.
    package static let funding = Endpoint(.get, "/wallet/fundings/{id}")
}
