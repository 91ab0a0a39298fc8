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
    public func transactions(limit: Int? = nil, cursor: String? = nil) async throws -> TransactionPage {
        try await call(request(.listTransactions, query: [("limit", limit.map { String($0) }), ("cursor", cursor)]))
    }
}
