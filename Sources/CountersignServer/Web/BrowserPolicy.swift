import Hummingbird

/// Which web origins may drive the API from a browser, and the middleware that enforces it:
/// CORS for the configured origins, and a refusal of state-changing requests from any other page.
package struct BrowserOrigins: Sendable {
    /// The origins the web app itself is served from: the relying party's web origins and the
    /// public base URL's.
    let own: Set<String>
    /// Other origins whose pages may call the API (`--cors-origin`).
    let cors: Set<String>

    package init(configuration: ServerConfiguration) {
        var own = Set(configuration.relyingParty.origins.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") })
        if let origin = Self.origin(of: configuration.publicBaseURL) { own.insert(origin) }
        self.own = own
        self.cors = Set(configuration.corsOrigins)
    }

    func allows(_ origin: String) -> Bool { own.contains(origin) || cors.contains(origin) }

    /// `scheme://host[:port]` of an http(s) URL.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { return nil }
        return String(url[..<schemeEnd.upperBound]) + authority
    }

    /// An `--cors-origin` entry must be an origin exactly: `https://shop.example[:port]`, nothing after.
    package static func isOrigin(_ value: String) -> Bool {
        guard value.hasPrefix("https://") || value.hasPrefix("http://"), origin(of: value) == value else {
            return false
        }
        return !value.contains("@") && !value.contains("\\") && !value.hasSuffix(":")
    }
}

/// CORS and cross-site request refusal.
/// - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from a CORS origin is answered
///   here, before routing; from any other origin it is 403 `origin_refused`.
/// - A response to a CORS origin says so (`Access-Control-Allow-Origin`, credentials, and the
///   headers a client reads: `Retry-After`, `Idempotent-Replayed`), errors included.
/// - A state-changing request (not GET, HEAD or OPTIONS) whose `Origin` is neither ours nor a CORS
///   origin is 403 `origin_refused`: another site's page must not act for the user. Requests
///   without `Origin` (native apps, servers, webhooks) are not browsers' and pass; the session
///   cookie additionally requires `Origin` (see `SessionMiddleware`).
struct BrowserPolicyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let origins: BrowserOrigins

    static let allowedMethods = "GET, POST, DELETE"
    static let allowedHeaders = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"
    static let exposedHeaders = "Retry-After, Idempotent-Replayed"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let isCORS = origins.cors.contains(origin)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard isCORS else { throw APIError.originRefused }
            var response = Response(status: .noContent)
            Self.allowCORS(origin, on: &response.headers)
            response.headers[.accessControlAllowMethods] = Self.allowedMethods
            response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
            response.headers[.accessControlMaxAge] = "600"
            return response
        }
        var response: Response
        do {
            if ![.get, .head, .options].contains(request.method), !origins.allows(origin) {
                throw APIError.originRefused
            }
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if isCORS { Self.allowCORS(origin, on: &response.headers) }
        return response
    }

    static func allowCORS(_ origin: String, on headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = origin
        headers[.accessControlAllowCredentials] = "true"
        headers[.accessControlExposeHeaders] = exposedHeaders
        headers[.vary] = "Origin"
    }
}

extension APIError {
    /// 403: a browser page from an origin we do not serve or trust.
    static let originRefused = APIError(.originRefused, "Requests from this web origin are not accepted.")
}
