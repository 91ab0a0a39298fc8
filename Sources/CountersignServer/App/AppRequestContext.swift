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
    /// The peer of the connection: the client, or a proxy in front of it (see `ClientAddress`).
    package let peerAddress: SocketAddress?
    /// Encodes route results; the tests observe it (`AppResponseEncoder.observer`).
    package var responseEncoder = AppResponseEncoder()

    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress
    }

    /// Bodies are small JSON documents; anything larger is refused with 413 before it is read whole.
    package var maxUploadSize: Int { 64 * 1024 }

    /// The authenticated user; only call on routes behind `SessionMiddleware`.
    package func requireUser() throws -> String {
        guard let userId else { throw APIError.unauthenticated }
        return userId
    }
}
