import CountersignAPI

extension CountersignAPIClient {
    /// `GET /user/limits`: the spending limits per currency, with what is used and what remains.
    public func limits() async throws -> LimitsResponse {
        try await call(request(.userLimits))
    }

    /// `PUT /user/limits`: lowers a limit at once; a raise needs `stepUp` (an assertion over
    /// `stepUpOptions()`'s challenge) and applies after the server's delay, shown as `pending`.
    public func setLimit(_ body: SetLimitRequest) async throws -> LimitsResponse {
        try await call(request(.setUserLimit, json: body))
    }

    /// `PUT /operator/users/{userId}/tier`: an operator puts a user in a limits tier.
    public func assignTier(userId: String, _ body: AssignTierRequest) async throws -> OperatorUserDetail {
        try await call(request(.operatorAssignTier, [userId], json: body))
    }
}
