import AsyncHTTPClient
import CountersignClient
import NIOCore

/// `HTTPTransport` over AsyncHTTPClient, which runs on Linux, macOS and iOS alike.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The server's base URL without a trailing slash, e.g. `https://api.example.com`.
    public let baseURL: String
    /// How long a one-shot request may take, start to end.
    public let timeout: TimeAmount
    private let client: HTTPClient

    // A response body larger than this is not one of ours.
    private static let maxBodyBytes = 4 << 20

    /// A transport to `baseURL` through `client` (the shared client unless given).
    public init(baseURL: String, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(30)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeout = timeout
    }

    /// Sends `request` and reads the whole response.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await client.execute(makeRequest(request), timeout: timeout)
        let body = try await response.body.collect(upTo: Self.maxBodyBytes)
        return TransportResponse(
            status: Int(response.status.code), headers: headers(of: response), body: Array(body.readableBytesView))
    }

    /// Sends `request` and hands the body over chunk by chunk; no deadline, since an event stream
    /// stays open as long as the server has something to say.
    public func stream(_ request: TransportRequest) async throws -> TransportStream {
        let response = try await client.execute(makeRequest(request), deadline: .distantFuture)
        let (body, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        let reader = Task {
            do {
                for try await buffer in response.body {
                    continuation.yield(Array(buffer.readableBytesView))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return TransportStream(status: Int(response.status.code), headers: headers(of: response), body: body)
    }

    private func makeRequest(_ request: TransportRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: baseURL + request.path)
        outgoing.method = .init(rawValue: request.method)
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    private func headers(of response: HTTPClientResponse) -> [String: String] {
        var headers: [String: String] = [:]
        // A field sent more than once (two `Set-Cookie`s) is combined with ", " (RFC 9110 §5.3),
        // so none is lost.
        for (name, value) in response.headers {
            headers[name.lowercased(), default: ""] += (headers[name.lowercased()] == nil ? "" : ", ") + value
        }
        return headers
    }
}
