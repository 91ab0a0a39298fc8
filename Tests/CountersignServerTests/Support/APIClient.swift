import AsyncHTTPClient
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
            throw TestFailure("could not decode \(T.self) from \(status) \(String(decoding: body, as: UTF8.self)): \(error)")
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

/// Real HTTP over loopback to a running server.
struct APIClient: Sendable {
    let baseURL: String
    let http: HTTPClient

    func send(_ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: [UInt8]? = nil, token: String? = nil, headers extra: [(String, String)] = [], timeout: TimeAmount = .seconds(30)) async throws -> APIResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        // JSON unless the test says otherwise (a `Content-Type` among `extra`).
        let contentType = request.headers.contains(name: "Content-Type") ? [] : [("Content-Type", "application/json")]
        if let json {
            request.headers.add(contentsOf: contentType)
            request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(json)))
        } else if let raw {
            request.headers.add(contentsOf: contentType)
            request.body = .bytes(ByteBuffer(bytes: raw))
        }
        let response = try await http.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
    }

    func get(_ path: String, token: String? = nil, timeout: TimeAmount = .seconds(30)) async throws -> APIResponse { try await send(.GET, path, token: token, timeout: timeout) }
    func post(_ path: String, _ json: (any Encodable)? = nil, token: String? = nil, headers: [(String, String)] = []) async throws -> APIResponse {
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
