import CountersignAPI
import Foundation
import Synchronization

/// Typed calls to every Countersign endpoint the app uses, holding the session token between them.
///
/// The token is set by `signup` and `login`, sent as `Authorization: Bearer …` on every other call,
/// and cleared by `logout`.
public final class CountersignAPIClient: Sendable {
    /// How the requests travel.
    public let transport: any HTTPTransport
    /// How many times a create (transfer, top-up) is sent again, with the same `Idempotency-Key`,
    /// after no answer or a server fault.
    public let createRetries: Int
    /// How long an event stream may stay silent (no event, no keep-alive) before it counts as dropped.
    public let streamIdleLimit: Duration
    let idleWait: @Sendable (Duration) async throws -> Void
    private let token: Mutex<String?>
    private let makeIdempotencyKey: @Sendable () -> String

    /// A client over `transport`, optionally resuming a session; `idempotencyKey` makes the key of
    /// each logical create (a random UUID unless given). The idle limit of 30 s leaves room for a
    /// missed keep-alive of a server that sends one every 15 seconds; `idleWait` spends each idle
    /// window (tests pass one they control).
    public init(
        transport: any HTTPTransport, sessionToken: String? = nil, createRetries: Int = 2,
        streamIdleLimit: Duration = .seconds(30),
        idleWait: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        idempotencyKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.idleWait = idleWait
        self.transport = transport
        self.token = Mutex(sessionToken)
        self.createRetries = createRetries
        self.streamIdleLimit = streamIdleLimit
        self.makeIdempotencyKey = idempotencyKey
    }

    /// The bearer token of the current session, nil when logged out.
    public var sessionToken: String? { token.withLock { $0 } }

    func setSessionToken(_ value: String?) { token.withLock { $0 = value } }

    /// A request to `endpoint`, its `{parameters}` filled in order with `parameters` and `query`
    /// appended (both percent-encoded), carrying the session token and, when given, `body` as JSON.
    func request(
        _ endpoint: Endpoint, _ parameters: [String] = [], query: [(String, String?)] = [],
        json body: (any Encodable)? = nil,
        headers: [String: String] = [:]
    ) throws -> TransportRequest {
        var headers = headers
        if let token = sessionToken { headers["Authorization"] = "Bearer \(token)" }
        var bytes: [UInt8]?
        if let body {
            headers["Content-Type"] = "application/json"
            bytes = Array(try JSONEncoder().encode(body))
        }
        return TransportRequest(
            method: endpoint.method.rawValue, path: endpoint.path(parameters, query: query), headers: headers,
            body: bytes)
    }

    /// Sends `request`; a 2xx answer is returned, anything else thrown as `CountersignClientError`.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await reach { try await transport.send(request) }
        guard (200..<300).contains(response.status) else {
            throw CountersignClientError.fromResponse(
                status: response.status, headers: response.headers, body: response.body)
        }
        return response
    }

    /// Runs `exchange`, turning its failure (no answer at all) into `.transport`.
    func reach<Answer>(_ exchange: () async throws -> Answer) async throws -> Answer {
        do {
            return try await exchange()
        } catch {
            throw CountersignClientError.transport(String(describing: error))
        }
    }

    /// Sends `request` and decodes the 2xx body as `T`.
    func call<T: Decodable>(_ request: TransportRequest, as type: T.Type = T.self) async throws -> T {
        try decode(T.self, from: try await send(request).body)
    }

    /// Sends a create under one fresh `Idempotency-Key`, again with the same key while the failure
    /// is retryable: the server answers a replay with the first outcome, so nothing happens twice.
    func create<T: Decodable>(
        _ endpoint: Endpoint, _ parameters: [String] = [], json body: some Encodable, idempotencyKey: String?
    ) async throws -> T {
        let outgoing = try self.request(
            endpoint, parameters, json: body, headers: ["Idempotency-Key": idempotencyKey ?? makeIdempotencyKey()])
        var attempt = 0
        while true {
            do {
                return try await call(outgoing)
            } catch let error as CountersignClientError where error.isRetryable && attempt < createRetries {
                attempt += 1
            }
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw CountersignClientError.decoding("\(T.self): \(error)")
        }
    }
}
