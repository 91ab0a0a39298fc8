extension Endpoint {
    /// `POST /user/topup`: buys airtime.
    package static let topUp = Endpoint(.post, "/user/topup")
    /// `GET /user/wallet`: the balances.
    package static let wallet = Endpoint(.get, "/user/wallet")
    /// `GET /user/transactions`: one page of history.
    package static let listTransactions = Endpoint(.get, "/user/transactions")
}
