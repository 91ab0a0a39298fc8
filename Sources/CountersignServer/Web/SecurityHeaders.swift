import HTTPTypes
import Hummingbird

/// Headers every response carries, errors included: no MIME sniffing, no referrer to other sites, not frameable,
/// its own browsing context group. A response without its own Content-Security-Policy gets one
/// that allows nothing (JSON needs no scripts); the web app's pages get `appPolicy`.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The web app's policy: its own scripts, styles and images only; no inline script or style,
    /// no `eval`, no framing, no plugins; forms post only here.
    static let appPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        Self.apply(to: &response.headers)
        return response
    }

    static func apply(to headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        // Not `no-referrer`: under it browsers send `Origin: null` even on our own pages' POSTs,
        // and the Origin check needs the real one. `same-origin` still tells other sites nothing.
        headers[.referrerPolicy] = "same-origin"
        headers[.xFrameOptions] = "DENY"
        headers[.crossOriginOpenerPolicy] = "same-origin"
        if headers[.contentSecurityPolicy] == nil {
            headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
