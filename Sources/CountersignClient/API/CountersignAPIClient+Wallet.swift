import CountersignAPI

extension CountersignAPIClient {
    /// `POST /user/topup`: buys airtime, authorized by `verificationToken` or `pin`. One
    /// `Idempotency-Key` (fresh unless given) covers the SDK's retries.
    public func topUp(_ body: TopUpRequest, idempotencyKey: String? = nil) async throws -> TopUpResponse {
        try await create(.topUp, json: body, idempotencyKey: idempotencyKey)
    }

    /// `GET /user/wallet`: the balances.
    public func wallet() async throws -> WalletResponse {
        try await call(request(.wallet))
    }

    /// `GET /user/transactions`: one page of history, newest first.
    public func transactions(limit: Int? = nil, cursor: String? = nil, currency: String? = nil) async throws
        -> TransactionPage
    {
        try await call(
            request(
                .listTransactions,
                query: [("limit", limit.map { String($0) }), ("cursor", cursor), ("currency", currency)]))
    }
}

extension CountersignAPIClient {
    /// `POST /wallet/fundings`: adds money to the wallet in `body.currency` by card or bank. The same
    /// `idempotencyKey` (a fresh one unless given) on a retry answers the funding it started, never a
    /// second payment. Send the payer to `redirectURL` when it is set, then poll `funding(id:)`.
    public func createFunding(_ body: CreateFundingRequest, idempotencyKey: String? = nil) async throws
        -> WalletFunding
    {
        try await create(.createFunding, json: body, idempotencyKey: idempotencyKey)
    }

    /// `GET /wallet/fundings/{id}`: where the funding stands, asked of the provider while pending.
    public func funding(id: String) async throws -> WalletFunding {
        try await call(request(.funding, [id]))
    }
}
