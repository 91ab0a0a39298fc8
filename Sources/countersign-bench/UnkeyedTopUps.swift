import CountersignAPI
import CountersignClient

/// A transport that takes the `Idempotency-Key` off top-ups before they leave (`--unkeyed-top-ups`).
///
/// The SDK keys every top-up, and a keyed top-up costs the server a lookup, a claim and a stored
/// answer. Benches from before the bench drove the SDK sent none, so this is the way to compare the
/// same server work with their results; it is not how an app should call the API.
struct UnkeyedTopUps: HTTPTransport {
    let base: any HTTPTransport

    init(_ base: any HTTPTransport) { self.base = base }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await base.send(Self.unkeyed(request))
    }

    func stream(_ request: TransportRequest) async throws -> TransportStream {
        try await base.stream(Self.unkeyed(request))
    }

    private static func unkeyed(_ request: TransportRequest) -> TransportRequest {
        guard request.method == Endpoint.topUp.method.rawValue, request.path == Endpoint.topUp.template else {
            return request
        }
        var request = request
        request.headers["Idempotency-Key"] = nil
        return request
    }
}
