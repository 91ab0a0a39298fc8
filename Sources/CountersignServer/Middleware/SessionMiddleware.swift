import Hummingbird

/// Requires `Authorization: Bearer <sessionToken>` naming a live session; sets `context.userId`.
package struct SessionMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    let accounts: AccountService

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw APIError.unauthenticated }
        let token = String(header.dropFirst("Bearer ".count))
        guard token.utf8.count <= 128, let userId = try await accounts.userId(forToken: token) else { throw APIError.unauthenticated }
        var context = context
        context.userId = userId
        context.sessionToken = token
        return try await next(request, context)
    }
}
