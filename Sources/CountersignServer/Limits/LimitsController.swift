import CountersignAPI
import Hummingbird

/// `/user/limits`: the signed-in user's spending limits.
package struct LimitsController {
    let limits: LimitsService
    let throttle: RequestThrottle

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.userLimits, use: list)
        group.on(.setUserLimit, use: set)
    }

    /// `GET /user/limits` → the limits per currency, with what is used and what remains.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> LimitsResponse {
        try await limits.limits(userId: try context.requireUser())
    }

    /// `PUT /user/limits {currency, kind, amount, stepUp?}` → the limits after.
    @Sendable func set(_ request: Request, context: AppRequestContext) async throws -> LimitsResponse {
        var request = request
        let userId = try context.requireUser()
        let body = try await request.decodeJSON(as: SetLimitRequest.self, context: context)
        if body.stepUp != nil {
            try await throttle.check(
                request, context: context, address: [.challengeAddress], account: [.challengeAccount], key: userId)
        }
        return try await limits.set(userId: userId, body)
    }
}

extension LimitsResponse: ResponseEncodable {}
