import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The request context of every route: Hummingbird's core storage plus the authenticated user.
package struct AppRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Set by `SessionMiddleware` on routes that need a session.
    package var userId: String?
    /// The bearer token the session was found by (for logout).
    package var sessionToken: String?
    /// The peer of the connection: the client, or a proxy in front of it (see `ClientAddress`).
    package let peerAddress: SocketAddress?
    /// The signed-in user, seen by middleware outside the session's (the request log): the context
    /// is a value, so what `SessionMiddleware` sets in its copy does not reach theirs.
    package let signedIn = SignedInUser()
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

/// The user a request was authenticated as, shared by every copy of its context.
package final class SignedInUser: Sendable {
    private let userId = Mutex<String?>(nil)

    package var id: String? { userId.withLock { $0 } }

    func set(_ id: String) { userId.withLock { $0 = id } }
}
