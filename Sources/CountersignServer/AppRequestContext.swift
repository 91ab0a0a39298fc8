import Hummingbird
import Logging
import NIOCore

/// The request context of every route: Hummingbird's core storage plus the authenticated user.
package struct AppRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Set by `SessionMiddleware` on routes that need a session.
    package var userId: String?
    /// The bearer token the session was found by (for logout).
    package var sessionToken: String?

    package init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// Bodies are small JSON documents; anything larger is refused with 413 before it is read whole.
    package var maxUploadSize: Int { 64 * 1024 }

    /// The authenticated user; only call on routes behind `SessionMiddleware`.
    package func requireUser() throws -> String {
        guard let userId else { throw APIError.unauthenticated }
        return userId
    }
}
