extension Endpoint {
    /// Buys airtime.
    package static let topUp = Endpoint(.post, "/user/topup")
    /// The balances.
    package static let wallet = Endpoint(.get, "/user/wallet")
    /// One page of history.
    package static let listTransactions = Endpoint(.get, "/user/transactions")
}
