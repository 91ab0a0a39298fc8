import Hummingbird
import Logging

/// Gives each request its trace id, then leaves one log record for it at `info`: method, the
/// route's template (never the path itself or its query, which can carry phone numbers), status,
/// duration, the user when one is signed in, the trace id and Hummingbird's request id
/// (`hb.request.id`). Nothing from the body or the headers is logged, so no PIN, token, card number
/// or key can reach the log.
///
/// The trace id is the request's OpenTelemetry trace id when traces are exported (this middleware
/// runs inside `RequestSpanMiddleware`'s span), else a fresh random one. Every line logged while the
/// request runs carries it (`RequestTrace.metadataProvider`), and so does every error body, so a
/// user's complaint quoting it finds the request's log lines and its trace.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The current span's trace id, when traces are exported.
    let exportedTraceId: (@Sendable () -> String?)?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        let traceId = exportedTraceId?() ?? RequestTrace.newIdentifier()
        context.record.setTraceId(traceId)
        return try await RequestTrace.$id.withValue(traceId) {
            do {
                let response = try await next(request, context)
                log(request, context, status: response.status.code, since: started)
                return response
            } catch let error as any HTTPResponseError {
                log(request, context, status: error.status.code, since: started)
                throw error
            } catch {
                log(request, context, status: 500, since: started)
                throw error
            }
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        guard context.logger.logLevel <= .info else { return }
        let elapsed = started.duration(to: .now)
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "route": .string(context.endpointPath ?? "unmatched"),
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
