import Hummingbird
import Logging

/// Gives each request its trace id, counts it in the metrics (`countersign_http_requests_total`
/// and its duration histogram, by method, route template and status; a replayed answer in
/// `countersign_idempotent_replays_total`), and leaves one log record
/// for it at `info`: method, the route's template (never the path itself or its query, which can
/// carry phone numbers), status, duration, the user when one is signed in, the trace id and
/// Hummingbird's request id (`hb.request.id`). Nothing from the body or the headers is logged, so
/// no PIN, token, card number or key can reach the log.
///
/// The trace id is the request's OpenTelemetry trace id when traces are exported (this middleware
/// runs inside `RequestSpanMiddleware`'s span), else a fresh random one. Every line logged while the
/// request runs carries it (`RequestTrace.metadataProvider`), and so does every error body, so a
/// user's complaint quoting it finds the request's log lines and its trace.
struct RequestRecordMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The current span's trace id, when traces are exported.
    let exportedTraceId: (@Sendable () -> String?)?
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        let traceId = exportedTraceId?() ?? RequestTrace.newIdentifier()
        context.record.setTraceId(traceId)
        return try await RequestTrace.$id.withValue(traceId) {
            do {
                let response = try await next(request, context)
                record(request, context, status: response.status.code, since: started)
                if response.headers[.idempotentReplayed] != nil {
                    metrics.idempotentReplay(route: context.endpointPath ?? "unmatched")
                }
                return response
            } catch let error as any HTTPResponseError {
                record(request, context, status: error.status.code, since: started)
                throw error
            } catch {
                record(request, context, status: 500, since: started)
                throw error
            }
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        let (method, route) = (request.method.rawValue, context.endpointPath ?? "unmatched")
        metrics.request(method: method, route: route, status: status, duration: elapsed)
        guard context.logger.logLevel <= .info else { return }
        var metadata: Logger.Metadata = [
            "method": .string(method),
            "route": .string(route),
            "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(Self.milliseconds(elapsed)),
        ]
        if let userId = context.record.userId { metadata["user"] = .string(userId) }
        context.logger.info("request", metadata: metadata)
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1_000_000 + Double(attoseconds / 1_000_000_000_000)).rounded() / 1_000
    }
}
