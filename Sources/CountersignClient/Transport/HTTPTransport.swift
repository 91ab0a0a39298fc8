/// One HTTP request as the SDK sends it, independent of any HTTP library.
public struct TransportRequest: Sendable, Equatable {
    /// The method, e.g. `GET`, `POST`.
    public var method: String
    /// The path and query, e.g. `/transfers/tr_1?x=1`, relative to the transport's base URL.
    public var path: String
    /// Header fields; names as written, compared case-insensitively by `header(_:)`.
    public var headers: [String: String]
    /// The body bytes, if any.
    public var body: [UInt8]?

    /// A request with every field given.
    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// A complete HTTP response.
public struct TransportResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The whole body.
    public var body: [UInt8]

    /// A response with every field given; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }
}

/// An HTTP response whose body arrives as it is sent, e.g. a `text/event-stream`.
public struct TransportStream: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The body in the chunks the network delivered; it throws when the connection drops.
    public var body: AsyncThrowingStream<[UInt8], any Error>

    /// A streaming response with every field given; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The whole body, read to its end (for error responses, which are short).
    public func collect(limit: Int = 1 << 20) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body {
            bytes += chunk
            if bytes.count > limit { break }
        }
        return bytes
    }
}

/// How the SDK reaches the server. The real ones are products of their own, so the SDK pulls in no
/// HTTP library: `URLSessionTransport` (CountersignClientURLSession, what an iOS app ships) and
/// `AsyncHTTPClientTransport` (CountersignClientAsyncHTTP, on SwiftNIO); tests script their own.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response; throws only when no response arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
    /// Sends `request` and returns as soon as the status and headers arrive; the body follows.
    func stream(_ request: TransportRequest) async throws -> TransportStream
}
