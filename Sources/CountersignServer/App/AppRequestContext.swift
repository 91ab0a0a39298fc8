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
    /// The session itself: how it was opened, and its new-device cooling-off.
    package var session: LiveSession?
    /// The peer of the connection: the client, or a proxy in front of it (see `ClientAddress`).
    package let peerAddress: SocketAddress?
    /// The request's trace id and signed-in user, seen by middleware outside the session's (the
    /// request log) and by the error body: the context is a value, so what `SessionMiddleware` sets
    /// in its copy does not reach theirs.
    package let record = RequestRecord()
    /// Encodes route results.
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

/// What one request's log record and error body name, shared by every copy of its context: the
/// trace id (`RequestRecordMiddleware` sets it first) and the user the request was authenticated as.
package final class RequestRecord: Sendable {
    private let state = Mutex<(traceId: String?, userId: String?)>((nil, nil))

    package var traceId: String? { state.withLock { $0.traceId } }
    package var userId: String? { state.withLock { $0.userId } }

    func setTraceId(_ id: String) { state.withLock { $0.traceId = id } }
    func setUserId(_ id: String) { state.withLock { $0.userId = id } }
}
