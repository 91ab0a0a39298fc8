import Hummingbird
import Tracing

/// One server span per request, when traces are exported (`ServerConfiguration.tracesExported`),
/// under the process's tracer (`InstrumentationSystem`). The database and supplier spans of the
/// request open inside it (`TracedDatabase`, `TracedAirtimeSupplier`, `TracedPaymentProvider`).
///
/// Unlike Hummingbird's `TracingMiddleware` it records no path, query, header or user agent: paths
/// and queries can carry phone numbers. The span is named for the route's template and records the
/// method, the template and the status. Every request starts a new trace: `traceparent` from the
/// public internet is not trusted to join one.
struct RequestSpanMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let method = request.method.rawValue
        let span = InstrumentationSystem.tracer.startSpan("\(method) unmatched", context: .topLevel, ofKind: .server)
        span.attributes["http.request.method"] = method
        defer { span.end() }
        do {
            let response = try await ServiceContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            finish(span, context, method: method, status: Int(response.status.code))
            return response
        } catch {
            let status = Int((error as? any HTTPResponseError)?.status.code ?? 500)
            finish(span, context, method: method, status: status)
            if status >= 500 { span.recordError(error) }
            throw error
        }
    }

    private func finish(_ span: any Span, _ context: Context, method: String, status: Int) {
        if let route = context.endpointPath {
            span.operationName = "\(method) \(route)"
            span.attributes["http.route"] = route
        }
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(.init(code: .error)) }
    }
}
