import Hummingbird
import Logging

/// One log record per request, at `info`: method, the route's template (never the path itself or
/// its query, which can carry phone numbers), status, duration, the user when one is signed in, and
/// Hummingbird's request id (`hb.request.id`, in the request logger's metadata). Nothing from the
/// body or the headers is logged, so no PIN, token, card number or key can reach the log.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
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

    private func log(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        var metadata: Logger.Metadata = [
            "method": "\(request.method)",
            "route": "\(context.endpointPath ?? "unmatched")",
            "status": "\(status)",
            "duration_ms": "\(Self.milliseconds(elapsed))",
        ]
        if let userId = context.signedIn.id { metadata["user"] = "\(userId)" }
        context.logger.info("request", metadata: metadata)
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1_000_000 + Double(attoseconds / 1_000_000_000_000)).rounded() / 1_000
    }
}
