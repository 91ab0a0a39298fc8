import CountersignAPI
import CountersignServer
import Foundation
import NIOHTTP1
import Testing
import Yams

/// `GET /openapi.yaml` against the running server: the document is served, every operation it
/// lists exists, and every route the server registers is listed.
@Suite("OpenAPI description")
struct OpenAPITests {
    /// Every route registered in App+build.swift and Controllers/*.swift, one line each. Add a line
    /// here (and to openapi.yaml) when you add a route.
    static let registeredRoutes: [APIRoute] = [
        APIRoute("GET", "/health"),
        APIRoute("GET", "/openapi.yaml"),
        APIRoute("POST", "/auth/signup"),
        APIRoute("POST", "/auth/login"),
        APIRoute("POST", "/auth/passkey/options"),
        APIRoute("POST", "/auth/passkey/verify"),
        APIRoute("POST", "/auth/logout"),
        APIRoute("POST", "/auth/logout-all"),
        APIRoute("POST", "/biometric/register/options"),
        APIRoute("POST", "/biometric/register/verify"),
        APIRoute("POST", "/biometric/step-up/options"),
        APIRoute("GET", "/biometric/credentials"),
        APIRoute("DELETE", "/biometric/credentials/{id}"),
        APIRoute("GET", "/biometric/auth/options"),
        APIRoute("POST", "/biometric/auth/options"),
        APIRoute("POST", "/biometric/auth/verify"),
        APIRoute("POST", "/user/topup"),
        APIRoute("GET", "/user/wallet"),
        APIRoute("GET", "/user/transactions"),
        APIRoute("POST", "/transfers"),
        APIRoute("GET", "/transfers/{id}"),
        APIRoute("GET", "/transfers/{id}/events"),
        APIRoute("POST", "/transfers/{id}/authorization"),
        APIRoute("POST", "/transfers/{id}/decline"),
        APIRoute("POST", "/transfers/{id}/cancel"),
        APIRoute("GET", "/user/profile"),
        APIRoute("PUT", "/user/merchant"),
        APIRoute("POST", "/user/addresses"),
        APIRoute("POST", "/products"),
        APIRoute("GET", "/products"),
        APIRoute("GET", "/products/{id}/bids"),
        APIRoute("GET", "/user/bids"),
        APIRoute("GET", "/user/orders"),
        APIRoute("GET", "/products/{id}"),
        APIRoute("POST", "/products/{id}/bids"),
        APIRoute("POST", "/products/{id}/buy-now"),
        APIRoute("GET", "/bids/{id}"),
        APIRoute("POST", "/bids/{id}/accept"),
        APIRoute("POST", "/bids/{id}/withdraw"),
        APIRoute("GET", "/bids/{id}/order"),
        APIRoute("POST", "/checkout/totals"),
        APIRoute("POST", "/orders"),
        APIRoute("GET", "/orders/{id}"),
        APIRoute("POST", "/orders/{id}/pay"),
        APIRoute("GET", "/orders/{id}/payment"),
        APIRoute("POST", "/orders/{id}/payment/cancel"),
        APIRoute("POST", "/orders/{id}/ship"),
        APIRoute("POST", "/orders/{id}/complete"),
        APIRoute("GET", "/user/proceeds"),
        APIRoute("POST", "/payment-methods/cards"),
        APIRoute("GET", "/payment-methods/cards"),
        APIRoute("POST", "/webhooks/payments"),
        APIRoute("GET", "/sim/pay/{intentId}"),
        APIRoute("POST", "/sim/pay/{intentId}/authorize"),
        APIRoute("POST", "/sim/pay/{intentId}/fail"),
    ]

    /// The routes that need no session; the spec marks exactly these `security: []`.
    static let publicRoutes: Set<APIRoute> = [
        APIRoute("GET", "/health"),
        APIRoute("GET", "/openapi.yaml"),
        APIRoute("POST", "/auth/signup"),
        APIRoute("POST", "/auth/login"),
        APIRoute("POST", "/auth/passkey/options"),
        APIRoute("POST", "/auth/passkey/verify"),
        APIRoute("GET", "/sim/pay/{intentId}"),
        APIRoute("POST", "/sim/pay/{intentId}/authorize"),
        APIRoute("POST", "/sim/pay/{intentId}/fail"),
        APIRoute("POST", "/webhooks/payments"),
    ]

    /// The document in the repository, which the server must serve unchanged.
    static let sourceURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CountersignServer/Resources/openapi.yaml")

    @Test("GET /openapi.yaml serves the OpenAPI 3.1 YAML from the repository")
    func servesTheDocument() async throws {
        try await LiveServer.run(.sqlite) { server in
            let response = try await server.client.get("/openapi.yaml")
            try #require(response.status == 200, "GET /openapi.yaml: \(response.status) \(response.text)")
            #expect(response.headers.first(name: "Content-Type")?.contains("yaml") == true)
            #expect(response.text.hasPrefix("openapi: 3.1"))
            #expect(response.text.contains("\npaths:\n"))
            #expect(response.text.contains("\ncomponents:\n"))
            if let source = try? String(contentsOf: Self.sourceURL, encoding: .utf8) {
                #expect(response.text == source, "the served document differs from \(Self.sourceURL.path)")
            }
        }
    }

    @Test("every registered route is documented, and exactly the public ones are marked security: []")
    func registeredRoutesAreDocumented() async throws {
        try await LiveServer.run(.sqlite) { server in
            let operations = try await Self.documentedOperations(server)
            let documented = Set(operations.map(\.route))
            #expect(documented.count == operations.count, "an operation is listed twice")
            for route in Self.registeredRoutes {
                #expect(documented.contains(route), "\(route) is registered but missing from openapi.yaml")
            }
            #expect(Set(operations.filter(\.isPublic).map(\.route)) == Self.publicRoutes)
        }
    }

    @Test("every documented operation exists: without a session, protected ones answer 401 and public ones neither 401 nor the router's 404")
    func documentedRoutesExistWithoutSession() async throws {
        try await LiveServer.run(.sqlite) { server in
            let operations = try await Self.documentedOperations(server)
            for operation in operations {
                let route = operation.route
                let response = try await server.client.send(HTTPMethod(rawValue: route.method), route.probePath)
                #expect(
                    !(response.status == 404 && response.errorCode == "not_found"),
                    "\(route) is in openapi.yaml but the server has no such route"
                )
                if operation.isPublic {
                    // As with a session below: a made-up id may be a 404, but never the router's.
                    let missingRoute = response.status == 404 && (route.probePath == route.path || response.errorCode == "not_found")
                    #expect(!missingRoute && response.status != 401, "\(route) (public): \(response.status) \(response.text)")
                } else {
                    #expect(response.status == 401, "\(route) without a session: \(response.status) \(response.text)")
                    #expect(response.errorCode == "unauthenticated", "\(route) without a session: \(response.text)")
                }
            }
            // Spelled out: the seed's GET form of the options endpoint needs a session.
            let options = try await server.client.get("/biometric/auth/options?amount=500&productCode=AIRTIME_MTN&recipientPhone=08012345678")
            #expect(options.status == 401)
            #expect(options.errorCode == "unauthenticated")
        }
    }

    @Test("with a session, no documented operation answers 404 or 401")
    func documentedRoutesExistWithSession() async throws {
        try await LiveServer.run(.sqlite) { server in
            let user = try await server.signup()
            // Logging out revokes the session, so those go last.
            let logouts: Set = [APIRoute("POST", "/auth/logout"), APIRoute("POST", "/auth/logout-all")]
            let documented = try await Self.documentedOperations(server)
            let operations = documented.filter { !logouts.contains($0.route) } + documented.filter { logouts.contains($0.route) }
            for operation in operations {
                let route = operation.route
                // Each logout gets a session of its own, since the one before ended them all.
                let token = logouts.contains(route)
                    ? try await server.client.post("/auth/login", LoginRequest(phone: user.phone, pin: user.pin)).decode(SessionResponse.self).sessionToken
                    : user.token
                let response = try await server.client.send(HTTPMethod(rawValue: route.method), route.probePath, token: token)
                // A path with a parameter may answer 404 for the probe's made-up id, but with the
                // resource's own code, never the router's `not_found`.
                let missingRoute = response.status == 404 && (route.probePath == route.path || response.errorCode == "not_found")
                #expect(!missingRoute, "\(route) with a session: \(response.status) \(response.text)")
                // A 401 other than `unauthenticated` (a step-up the probe did not send) is the route's own.
                #expect(response.errorCode != "unauthenticated", "\(route) with a session: \(response.status) \(response.text)")
            }
        }
    }

    @Test("a missing path is 404; a path without that method is 405 with Allow, signed in or not")
    func unknownRoutesAreNotFound() async throws {
        try await LiveServer.run(.sqlite) { server in
            for path in ["/no-such-endpoint", "/user/no-such-endpoint", "/transfers/a/b/c/d", "/" + String(repeating: "a/", count: 40)] {
                let response = try await server.client.send(.GET, path)
                #expect(response.status == 404 && response.errorCode == "not_found", "GET \(path): \(response.status) \(response.text)")
            }
            let user = try await server.signup()
            let wrongMethods: [(HTTPMethod, String, String)] = [
                (.POST, "/user/wallet", "GET"),
                (.GET, "/user/topup", "POST"),
                (.DELETE, "/biometric/auth/options", "GET, POST"),
                (.GET, "/auth/signup", "POST"),
                (.PUT, "/transfers/tr_1", "GET"),
                (.GET, "/biometric/credentials/abc", "DELETE"),
            ]
            for (method, path, allow) in wrongMethods {
                for token in [nil, user.token] {
                    let response = try await server.client.send(method, path, token: token)
                    #expect(response.status == 405 && response.errorCode == "method_not_allowed", "\(method) \(path): \(response.status) \(response.text)")
                    #expect(response.headers.first(name: "Allow") == allow, "\(method) \(path)")
                }
            }
        }
    }

    @Test("the line-based parser reads paths, methods and security: [] from the paths section only")
    func parserReadsPathsSection() {
        let sample = """
            openapi: 3.1.0
            info:
              description: |
                /not-a-path:
                get:
            paths:
              /a:
                get:
                  security: []
                  responses: {}
                post:
                  responses:
                    '200':
                      description: ok
              /b/c.yaml:
                delete:
                  parameters: []
            components:
              schemas:
                X:
                  get:
                    type: string
            """
        let operations = OpenAPIPaths.operations(in: sample)
        #expect(operations == [
            OpenAPIPaths.Operation(route: APIRoute("GET", "/a"), isPublic: true),
            OpenAPIPaths.Operation(route: APIRoute("POST", "/a"), isPublic: false),
            OpenAPIPaths.Operation(route: APIRoute("DELETE", "/b/c.yaml"), isPublic: false),
        ])
    }

    /// The operations of the document the server serves.
    @Test("openapi.yaml is valid YAML, and a YAML parser finds exactly the operations the line reader does")
    func parsesAsYAML() async throws {
        try await LiveServer.run(.sqlite) { server in
            let text = try await server.client.get("/openapi.yaml").text
            // An unquoted ": " in a one-line description once made the whole document unreadable
            // to every client and to schemathesis, while the line reader saw nothing wrong.
            let document = try #require(try Yams.load(yaml: text) as? [String: Any])
            #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
            let paths = try #require(document["paths"] as? [String: Any])
            var parsed = Set<APIRoute>()
            for (path, item) in paths {
                for method in (item as? [String: Any] ?? [:]).keys where ["get", "put", "post", "delete", "patch"].contains(method) {
                    parsed.insert(APIRoute(method.uppercased(), path))
                }
            }
            #expect(parsed == Set(OpenAPIPaths.operations(in: text).map(\.route)))
        }
    }

    static func documentedOperations(_ server: LiveServer) async throws -> [OpenAPIPaths.Operation] {
        let response = try await server.client.get("/openapi.yaml")
        try #require(response.status == 200, "GET /openapi.yaml: \(response.status) \(response.text)")
        let operations = OpenAPIPaths.operations(in: response.text)
        try #require(operations.count >= registeredRoutes.count, "openapi.yaml lists only \(operations.count) operations")
        return operations
    }
}

/// An HTTP method and path.
struct APIRoute: Hashable, Sendable, CustomStringConvertible {
    let method: String
    let path: String
    init(_ method: String, _ path: String) {
        self.method = method
        self.path = path
    }
    var description: String { "\(method) \(path)" }

    /// The path with every `{parameter}` replaced by a made-up value, to send.
    var probePath: String {
        path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "probe_id", options: .regularExpression)
    }
}

/// Reads the operations of an OpenAPI YAML document line by line (no YAML library here). It relies
/// on openapi.yaml's regular layout: `paths:` at column 0, each path key at two spaces
/// (`  /user/topup:`), each method at four (`    post:`), and `      security: []` at six for an
/// operation that needs no session. The section ends at the next key at column 0.
enum OpenAPIPaths {
    struct Operation: Hashable, Sendable {
        let route: APIRoute
        var isPublic: Bool
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    static func operations(in yaml: String) -> [Operation] {
        var operations: [Operation] = []
        var inPaths = false
        var path: String?
        var current: Int?
        for rawLine in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            guard inPaths else {
                inPaths = line == "paths:"
                continue
            }
            if let first = line.first, first != " ", first != "#" { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
                current = nil
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let key = String(line.dropFirst(4).dropLast())
                current = nil
                if methods.contains(key), let path {
                    operations.append(Operation(route: APIRoute(key.uppercased(), path), isPublic: false))
                    current = operations.count - 1
                }
            } else if line == "      security: []", let current {
                operations[current].isPublic = true
            }
        }
        return operations
    }
}
