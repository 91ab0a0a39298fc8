import Hummingbird

/// What the handlers call to count a request against the rate limits, by client address and by
/// account.
package struct RequestThrottle: Sendable {
    let limiter: RateLimiter
    let clientAddress: ClientAddress
    let metrics: ServerMetrics

    /// Counts the request under each bucket: `.address` buckets by the client's address, the others
    /// by `account` (a user id or a phone number). 429 `rate_limited` if any is used up, counted in
    /// `countersign_rate_limited_total` by route.
    func check(
        _ request: Request, context: AppRequestContext, address: [RateLimits.Bucket] = [],
        account: [RateLimits.Bucket] = [], key: String? = nil
    ) async throws {
        var keys = address.map { ($0, clientAddress.of(request, context: context)) }
        if let key { keys += account.map { ($0, key) } }
        do {
            try await limiter.check(keys)
        } catch let error as APIError where error.code == .rateLimited {
            metrics.rateLimited(route: context.endpointPath ?? "unmatched")
            throw error
        }
    }
}
