import CountersignAPI

extension CountersignAPIClient {
    /// `POST /user/topup`: buys airtime, authorized by `verificationToken` or `pin`. One
    /// `Idempotency-Key` (fresh unless given) covers the SDK's retries.
    public func topUp(_ body: TopUpRequest, idempotencyKey: String? = nil) async throws -> TopUpResponse {
        try await create("POST", "/user/topup", json: body, idempotencyKey: idempotencyKey)
    }

    /// `GET /user/wallet`: the balances.
    public func wallet() async throws -> WalletResponse {
        try await call(request("GET", "/user/wallet"))
    }

    /// `GET /user/transactions`: one page of history, newest first.
    public func transactions(limit: Int? = nil, cursor: String? = nil) async throws -> TransactionPage {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let cursor { query.append("cursor=\(Self.escape(cursor))") }
        let path = query.isEmpty ? "/user/transactions" : "/user/transactions?" + query.joined(separator: "&")
        return try await call(request("GET", path))
    }
}
