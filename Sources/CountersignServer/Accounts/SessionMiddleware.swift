import Hummingbird

/// Requires a live session and sets `context.userId`: `Authorization: Bearer <sessionToken>`
/// (apps, servers) or the session cookie (the web app).
///
/// A cookie is sent by the browser on its own, so a request authenticated by it that changes
/// something must also show it comes from one of our pages: an `Origin` we serve or trust.
/// Together with SameSite=Strict and JSON-only bodies (415 otherwise, so no HTML form can post
/// them), that is the protection against cross-site request forgery.
package struct SessionMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    let accounts: AccountService
    let cookie: SessionCookie
    let origins: BrowserOrigins

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let token: String
        if let header = request.headers[.authorization] {
            guard header.hasPrefix("Bearer ") else { throw APIError.unauthenticated }
            token = String(header.dropFirst("Bearer ".count))
        } else if let value = cookie.token(in: request.headers) {
            if ![.get, .head].contains(request.method) {
                guard let origin = request.headers[.origin], origins.allows(origin) else {
                    throw APIError.originRefused
                }
            }
            token = value
        } else {
            throw APIError.unauthenticated
        }
        guard token.utf8.count <= 128, let session = try await accounts.session(forToken: token) else {
            throw APIError.unauthenticated
        }
        var context = context
        context.userId = session.userId
        context.record.setUserId(session.userId)
        context.sessionToken = token
        context.session = session
        return try await next(request, context)
    }
}
