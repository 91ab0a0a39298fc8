import CountersignClient
import Synchronization

/// The SDK's `HTTPTransport` over one kept-alive `LoopbackHTTPConnection`: how each bench client
/// drives the server through `CountersignAPIClient`.
///
/// `send` blocks the calling thread until the whole answer is read, so call it only from a task
/// that prefers a `DedicatedThreadExecutor`. One exchange at a time: concurrent calls wait for
/// the connection in turn.
final class LoopbackSocketTransport: HTTPTransport {
    private let connection: Mutex<LoopbackHTTPConnection>

    /// A transport to 127.0.0.1:`port`; it connects on the first request.
    init(port: Int) {
        connection = Mutex(LoopbackHTTPConnection(port: port))
    }

    /// Sends `request` and reads the whole response, blocking the calling thread.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try connection.withLock { try $0.send(request) }
    }

    /// Refused: the bench reads no event streams, and this connection reads whole responses only.
    func stream(_ request: TransportRequest) async throws -> TransportStream {
        throw BenchError("LoopbackSocketTransport reads whole responses; it cannot stream \(request.path)")
    }
}
