import CountersignClient
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession: the transport an iOS or macOS app ships, and it runs on Linux
/// through FoundationNetworking.
///
/// Every request goes through one delegate-driven data task, so a `text/event-stream` body is
/// handed over as it arrives on every platform (`URLSession.bytes(for:)` does not exist on Linux).
/// Cookies and caching are off: the SDK authenticates with a bearer token, and a stored cookie
/// would make the server treat a call as a browser's.
public final class URLSessionTransport: HTTPTransport {
    /// The server's base URL without a trailing slash, e.g. `https://api.example.com`.
    public let baseURL: String
    /// How long a one-shot request may take, start to end.
    public let timeout: Duration
    private let session: URLSession
    private let router = DataTaskRouter()

    // A response body larger than this is not one of ours.
    private static let maxBodyBytes = 4 << 20
    // An event stream is watched for silence by the SDK (`CountersignAPIClient.streamIdleLimit`),
    // so URLSession's own idle timer only has to outlast it.
    private static let streamIdleTimeout: TimeInterval = 24 * 3600

    /// A transport to `baseURL`. `configuration` is copied, then cookies and caching are turned off
    /// in the copy; use it for proxies, `waitsForConnectivity` and the like.
    public init(baseURL: String, configuration: URLSessionConfiguration = .ephemeral, timeout: Duration = .seconds(30))
    {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.timeout = timeout
        // swift-corelibs-foundation's copy() returns Any: the cast cannot fail.
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        // The session holds its delegate until invalidated; running streams may finish first.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and reads the whole response, within `timeout`.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let outgoing = try urlRequest(request, idleTimeout: timeout.timeInterval)
        return try await Self.within(timeout) {
            let (response, task) = try await self.open(outgoing)
            var body: [UInt8] = []
            for try await chunk in response.body {
                body += chunk
                guard body.count <= Self.maxBodyBytes else {
                    task.cancel()
                    throw URLError(.dataLengthExceedsMaximum)
                }
            }
            return TransportResponse(status: response.status, headers: response.headers, body: body)
        }
    }

    /// Sends `request` and hands the body over chunk by chunk; no deadline, since an event stream
    /// stays open as long as the server has something to say. Cancelling the task that reads the
    /// body cancels the request.
    public func stream(_ request: TransportRequest) async throws -> TransportStream {
        try await open(urlRequest(request, idleTimeout: Self.streamIdleTimeout)).stream
    }

    private func urlRequest(_ request: TransportRequest, idleTimeout: TimeInterval) throws -> URLRequest {
        guard let url = URL(string: baseURL + request.path) else { throw URLError(.badURL) }
        var outgoing = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        outgoing.httpMethod = request.method
        for (name, value) in request.headers {
            outgoing.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body {
            outgoing.httpBody = Data(body)
        }
        return outgoing
    }

    /// Starts a data task for `request` and returns once its status and headers arrived, with the
    /// task, whose cancellation ends the body. Cancelling the calling task cancels the data task.
    private func open(_ request: URLRequest) async throws -> (stream: TransportStream, task: URLSessionDataTask) {
        let task = session.dataTask(with: request)
        let stream = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportStream, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                router.register(task, head: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return (stream, task)
    }

    /// `work`'s result, or `URLError(.timedOut)` once `limit` has passed (`work` is then cancelled).
    private static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask(operation: work)
            group.addTask {
                try await Task.sleep(for: limit)
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            // Two tasks were added, so there is a first result.
            return try await group.next()!
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
