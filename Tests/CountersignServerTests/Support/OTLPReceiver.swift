import Foundation
import Hummingbird
import Synchronization

/// A trace collector on 127.0.0.1: takes OTLP/HTTP JSON exports at `/v1/traces` (what
/// `countersign serve --otlp-endpoint` sends with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps
/// their spans.
final class OTLPReceiver: Sendable {
    /// One received span.
    struct Span: Sendable, CustomStringConvertible {
        let traceId: String
        let spanId: String
        let parentSpanId: String?
        let name: String
        let attributes: [String: String]

        var description: String { "\(name) \(spanId) ← \(parentSpanId ?? "root") \(attributes)" }
    }

    private let received = Mutex<[Span]>([])
    private let port = Mutex(0)

    var endpoint: String { "http://127.0.0.1:\(port.withLock { $0 })" }
    var spans: [Span] { received.withLock { $0 } }

    /// Runs `body` with a receiver listening, then stops it.
    static func run<T: Sendable>(_ body: @Sendable (OTLPReceiver) async throws -> T) async throws -> T {
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 16 << 20)
            receiver.take(Data(buffer: body))
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: "{}")))
        }
        return try await LoopbackHTTPServer.run(router, name: "otlp") { port in
            receiver.port.withLock { $0 = port }
            return try await body(receiver)
        }
    }

    /// Keeps the spans of one `ExportTraceServiceRequest` in its JSON form.
    private func take(_ data: Data) {
        guard let export = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        var spans: [Span] = []
        for resource in export["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any],
                            let first = value.values.first
                        else { continue }
                        attributes[key] = "\(first)"
                    }
                    spans.append(
                        Span(
                            traceId: Self.hex(span["traceId"]) ?? "", spanId: Self.hex(span["spanId"]) ?? "",
                            parentSpanId: Self.hex(span["parentSpanId"]).flatMap { $0.isEmpty ? nil : $0 },
                            name: span["name"] as? String ?? "", attributes: attributes))
                }
            }
        }
        received.withLock { $0.append(contentsOf: spans) }
    }

    /// An id as lowercase hex: OTLP JSON sends hex; base64 (protobuf's JSON mapping of bytes) is converted.
    private static func hex(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        if text.allSatisfy(\.isHexDigit), text.count % 2 == 0 { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
