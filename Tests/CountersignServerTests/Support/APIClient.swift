import AsyncHTTPClient
import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import CountersignHarness
import Foundation
import NIOCore
import NIOHTTP1

/// A response as the tests see it.
struct APIResponse: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    /// The body decoded as `T`; records an issue and throws if it isn't.
    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw TestFailure(
                "could not decode \(T.self) from \(status) \(String(decoding: body, as: UTF8.self)): \(error)")
        }
    }

    /// The `error.code` of an error body, or the `code` of the verify endpoint's body.
    var errorCode: String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        if let error = object["error"] as? [String: Any] { return error["code"] as? String }
        return object["code"] as? String
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Real HTTP over loopback to a running server, through the SDK's transport: requests the SDK
/// would never send (raw bodies, forged headers, any method) go the same way as the SDK's own.
struct APIClient: Sendable {
    let baseURL: String
    /// The connection pool under the transport; its configuration (e.g. no redirects) applies.
    let http: HTTPClient

    /// The SDK's transport to this server; a one-shot request may take up to `timeout`.
    /// A request that takes `timeout` is a hang, not a slow machine: two minutes (30 s once failed the
    /// 200 concurrent top-ups on a machine with other work on both cores).
    static let defaultTimeout: TimeAmount = .seconds(120)

    func transport(timeout: TimeAmount = Self.defaultTimeout) -> any HTTPTransport {
        AsyncHTTPClientTransport(baseURL: baseURL, client: http, timeout: timeout)
    }

    /// An SDK client to this server, in the session `token` when given.
    func sdk(token: String? = nil) -> CountersignAPIClient {
        CountersignAPIClient(transport: transport(), sessionToken: token)
    }

    func send(
        _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: [UInt8]? = nil, token: String? = nil,
        headers extra: [(String, String)] = [], timeout: TimeAmount = Self.defaultTimeout
    ) async throws -> APIResponse {
        var request = TransportRequest(method: method.rawValue, path: path)
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        for (name, value) in extra { request.headers[name] = value }
        if json != nil || raw != nil {
            // JSON unless the test says otherwise (a `Content-Type` among `extra`).
            if request.header("Content-Type") == nil { request.headers["Content-Type"] = "application/json" }
            request.body = try json.map { Array(try JSONEncoder().encode($0)) } ?? raw
        }
        let response = try await transport(timeout: timeout).send(request)
        // The transport combines repeated fields with ", "; Set-Cookie's are taken apart again (ours
        // hold no comma).
        let fields = response.headers.flatMap { name, value in
            name == "set-cookie"
                ? value.components(separatedBy: ", ").map { (name, $0) } : [(name, value)]
        }
        return APIResponse(status: response.status, headers: HTTPHeaders(fields), body: Data(response.body))
    }

    func get(_ path: String, token: String? = nil, timeout: TimeAmount = Self.defaultTimeout) async throws
        -> APIResponse
    {
        try await send(.GET, path, token: token, timeout: timeout)
    }
    func post(_ path: String, _ json: (any Encodable)? = nil, token: String? = nil, headers: [(String, String)] = [])
        async throws -> APIResponse
    {
        try await send(.POST, path, json: json, token: token, headers: headers)
    }
}

/// Runs `body` with an HTTP client that is shut down afterwards, whether `body` throws or not (a
/// client dropped without a shutdown traps in its deinit and takes the test runner with it).
func withHTTPClient<T: Sendable>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let http = HTTPClient(eventLoopGroupProvider: .singleton)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(http))
    } catch {
        result = .failure(error)
    }
    try await http.shutdown()
    return try result.get()
}

extension APIClient {
    /// A signup body for `phone` with a code asked for and read from the SMS simulator.
    func signupBody(phone: String, name: String, pin: String) async throws -> SignupRequest {
        let code = try await EnrolledUser.simulatedCode(sdk(), phone: phone, purpose: .signup)
        return SignupRequest(verificationId: code.verificationId, code: code.code, name: name, pin: pin)
    }
}
