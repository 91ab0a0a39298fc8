import AsyncHTTPClient
import CountersignAPI
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP answer: status and body bytes.
struct BenchResponse: Sendable {
    /// The HTTP status code and the whole body.
    let status: Int
    let body: ByteBuffer

    /// The body decoded as `T` with `decoder`.
    func decode<T: Decodable>(_ type: T.Type, with decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(body.readableBytesView))
    }

    /// The error code the server put in the body (`error.code`, or the verify endpoint's `code`),
    /// for grouping failures; read only on failures.
    var errorCode: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else { return nil }
        if let error = object["error"] as? [String: Any] { return error["code"] as? String }
        return object["code"] as? String
    }
}

/// The Countersign API over AsyncHTTPClient, against the bench's loopback server only.
struct BenchAPI: Sendable {
    /// `http://127.0.0.1:<port>`, and the client every call goes through.
    let baseURL: String
    let http: HTTPClient
    /// Per request; a flow that takes longer than this is counted as an error, not waited for.
    static let timeout = TimeAmount.seconds(10)

    /// A client with up to `connections` HTTP/1.1 connections kept open to the server, so each
    /// concurrent bench client in practice keeps one.
    static func makeHTTPClient(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `GET path`.
    func get(_ path: String, token: String? = nil) async throws -> BenchResponse {
        try await send(.GET, path, body: nil, token: token)
    }

    /// `POST path` with a JSON body.
    func post(_ path: String, json: [UInt8]? = nil, token: String? = nil) async throws -> BenchResponse {
        try await send(.POST, path, body: json, token: token)
    }

    /// `POST path` with `value` encoded as JSON by a fresh encoder (setup only; the hot loop reuses its own).
    func post(_ path: String, _ value: some Encodable, token: String? = nil) async throws -> BenchResponse {
        try await post(path, json: Array(JSONEncoder().encode(value)), token: token)
    }

    private func send(_ method: HTTPMethod, _ path: String, body: [UInt8]?, token: String?) async throws -> BenchResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await http.execute(request, timeout: Self.timeout)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return BenchResponse(status: Int(response.status.code), body: bytes)
    }
}
