import ArgumentParser
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Traces exported over OTLP/HTTP by swift-otel, off unless configured: `--otlp-endpoint URL` (the
/// collector's base URL; spans go to its `/v1/traces`), or
/// the OpenTelemetry environment (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
/// or `OTEL_TRACES_EXPORTER=otlp`). The rest of the OpenTelemetry environment applies as usual
/// (`OTEL_EXPORTER_OTLP_PROTOCOL` `http/protobuf` or `http/json`, headers, timeouts, the batch
/// processor's delays, the sampler). Only traces: logs stay on standard error, metrics on `/metrics`.
enum TraceExport {
    /// The exporter's background service and the current span's trace id, or nil when traces are off.
    /// Bootstraps the process's tracer (`InstrumentationSystem`), so it runs at most once per process.
    static func start(endpoint: String?, environment: [String: String]) throws -> (
        service: any Service, traceId: @Sendable () -> String?
    )? {
        let configured = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains {
            !(environment[$0] ?? "").isEmpty
        }
        guard endpoint != nil || configured || environment["OTEL_TRACES_EXPORTER"] == "otlp" else { return nil }
        if let endpoint, !(endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://")) {
            throw ValidationError("--otlp-endpoint must be an http:// or https:// URL, e.g. http://127.0.0.1:4318")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "countersign"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.exporter = .otlp
        // A base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` is: spans go to its `/v1/traces`.
        if let endpoint {
            configuration.traces.otlpExporter.endpoint = endpoint + (endpoint.hasSuffix("/") ? "" : "/") + "v1/traces"
        }
        let backend: (factory: any Tracer, service: any Service)
        do {
            let made = try OTel.makeTracingBackend(configuration: configuration)
            backend = (made.factory, made.service)
        } catch {
            throw ValidationError("cannot export traces: \(error)")
        }
        InstrumentationSystem.bootstrap(backend.factory)
        let spanMetadata = OTel.makeLoggingMetadataProvider()
        return (
            backend.service,
            {
                guard case .string(let id)? = spanMetadata.get()["trace_id"] else { return nil }
                return id
            }
        )
    }
}
