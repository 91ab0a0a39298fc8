import Hummingbird
import Logging
import NIOCore

/// `GET /metrics` in the Prometheus text format, on a listener of its own
/// (`countersign serve --metrics-address`), never on the public port: the numbers describe the
/// business (payments, lockouts) and the listener has no authentication. Any other path is 404.
enum MetricsEndpoint {
    static func application(
        _ metrics: ServerMetrics, at address: (host: String, port: Int), logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        return Application(
            router: router,
            configuration: .init(
                address: .hostname(address.host, port: address.port), serverName: "countersign-metrics"),
            logger: logger)
    }
}
