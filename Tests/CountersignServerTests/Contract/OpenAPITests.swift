import CountersignAPI
import CountersignServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Testing
import Yams

/// openapi.yaml against the application itself: the document is served, its operations are exactly
/// the router's routes, and exactly the ones it marks `security: []` answer without a session. No
/// list of routes is kept here: the router's table is the one source.
@Suite("OpenAPI description")
struct OpenAPITests {
    @Test("GET /openapi.yaml serves the OpenAPI 3.1 YAML from the repository")
    func servesTheDocument() async throws {
        try await LiveServer.run(.sqlite) { server in
            let response = try await server.client.get(Endpoint.openAPIDocument.path())
            try #require(response.status == 200, "GET /openapi.yaml: \(response.status) \(response.text)")
            #expect(response.headers.first(name: "Content-Type")?.contains("yaml") == true)
            #expect(
                response.text == (try String(contentsOf: OpenAPIDocument.sourceURL, encoding: .utf8)),
                "the served document differs from the repository's")
            // An unquoted ": " in a one-line description once made the whole document unreadable
            // to every client and to schemathesis.
            let document = try OpenAPIDocument(yaml: response.text)
            #expect((document.root["openapi"] as? String)?.hasPrefix("3.1") == true)
            #expect(document.root["components"] is [String: Any])
        }
    }

    @Test("the router's routes are exactly the operations of openapi.yaml")
    func routesAreTheDocumentedOperations() async throws {
        try await Self.withRouter { router, _ in
            let registered = router.routes.map { "\($0.method.rawValue) \($0.path)" }
            #expect(Set(registered).count == registered.count, "a route is registered twice")
            let documented = OpenAPIDocument.repository.operations.map { "\($0.method) \($0.path)" }
            #expect(Set(documented).count == documented.count, "an operation is documented twice")
            #expect(registered.count > 50, "the router lists only \(registered.count) routes")
            let undocumented = Set(registered).subtracting(documented).sorted()
            let unregistered = Set(documented).subtracting(registered).sorted()
            #expect(undocumented.isEmpty, "registered but not in openapi.yaml: \(undocumented)")
            #expect(unregistered.isEmpty, "in openapi.yaml but not registered: \(unregistered)")
        }
    }

    @Test(
        "without a session, exactly the operations openapi.yaml marks security: [] answer other than 401 unauthenticated"
    )
    func publicOperationsAreTheDocumentedOnes() async throws {
        let contract = ContractViolations()
        try await Self.withRouter(contract: ResponseContract(document: .repository, violations: contract)) {
            router, app in
            let routes = router.routes.map { (method: $0.method, path: "\($0.path)") }
            try await app.test(.router) { client in
                for route in routes {
                    let path = route.path
                    let operation = try #require(
                        OpenAPIDocument.repository.operation(route.method.rawValue, path),
                        "\(route.method) \(path) is not documented")
                    // A made-up id; a body of `{}` for those that read one.
                    let probe = path.replacingOccurrences(
                        of: #"\{[^}]+\}"#, with: "probe_id", options: .regularExpression)
                    let response = try await client.execute(
                        uri: probe, method: route.method, headers: [.contentType: "application/json"],
                        body: route.method == .get || route.method == .delete ? nil : ByteBuffer(string: "{}")
                    )
                    let code = (try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView)))?
                        .error.code
                    let needsSession = response.status == .unauthorized && code == "unauthenticated"
                    #expect(
                        needsSession != operation.isPublic,
                        "\(route.method) \(path): \(response.status), but openapi.yaml says \(operation.isPublic ? "public" : "a session is required")"
                    )
                    #expect(
                        !(response.status == .notFound && code == "not_found"),
                        "\(route.method) \(path): the router has no such route")
                }
            }
        }
        #expect(contract.all.isEmpty, "\(contract.all)")
    }

    @Test("with a session, no documented operation answers the router's 404 or 401 unauthenticated")
    func documentedRoutesExistWithSession() async throws {
        // A signed-in GET of the account's event stream is answered in full: a short stream ends soon.
        try await LiveServer.run(.sqlite, configure: { $0.streamMaxSeconds = 2 }) { server in
            let user = try await server.signup()
            // Logging out revokes the session, so those go last.
            let logouts: Set = [Endpoint.logout.description, Endpoint.logoutEverywhere.description]
            let documented = OpenAPIDocument.repository.operations
            let operations =
                documented.filter { !logouts.contains("\($0.method) \($0.path)") }
                + documented.filter { logouts.contains("\($0.method) \($0.path)") }
            for operation in operations {
                let route = "\(operation.method) \(operation.path)"
                // Each logout gets a session of its own, since the one before ended them all.
                let token =
                    logouts.contains(route)
                    ? try await server.client.post(
                        Endpoint.login.path(),
                        LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                    ).decode(SessionResponse.self).sessionToken
                    : user.token
                let probe = operation.path.replacingOccurrences(
                    of: #"\{[^}]+\}"#, with: "probe_id", options: .regularExpression)
                let response = try await server.client.send(HTTPMethod(rawValue: operation.method), probe, token: token)
                // A path with a parameter may answer 404 for the probe's made-up id, but with the
                // resource's own code, never the router's `not_found`.
                let missingRoute =
                    response.status == 404 && (probe == operation.path || response.errorCode == "not_found")
                #expect(!missingRoute, "\(route) with a session: \(response.status) \(response.text)")
                // A 401 other than `unauthenticated` (a step-up the probe did not send) is the route's own.
                #expect(
                    response.errorCode != "unauthenticated",
                    "\(route) with a session: \(response.status) \(response.text)")
            }
        }
    }

    @Test("a missing path is 404; a path without that method is 405 with Allow, signed in or not")
    func unknownRoutesAreNotFound() async throws {
        try await LiveServer.run(.sqlite) { server in
            for path in [
                "/no-such-endpoint", "/user/no-such-endpoint", "/transfers/a/b/c/d",
                "/" + String(repeating: "a/", count: 40),
            ] {
                let response = try await server.client.send(.GET, path)
                #expect(
                    response.status == 404 && response.errorCode == "not_found",
                    "GET \(path): \(response.status) \(response.text)")
            }
            let user = try await server.signup()
            // Literal paths: what is sent on the wire is the point here.
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
                    #expect(
                        response.status == 405 && response.errorCode == "method_not_allowed",
                        "\(method) \(path): \(response.status) \(response.text)")
                    #expect(response.headers.first(name: "Allow") == allow, "\(method) \(path)")
                }
            }
        }
    }

    /// The application's router over a fresh, prepared SQLite store, and an in-process application
    /// around it; `contract`, when given, checks every response it sends.
    static func withRouter(
        contract: ResponseContract? = nil,
        _ body:
            @Sendable (Router<AppRequestContext>, Application<RouterResponder<AppRequestContext>>) async throws -> Void
    ) async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let configuration = LiveServer.configuration(dataDirectory: FileManager.default.temporaryDirectory.path)
            let services = try await CountersignApp.makeServices(
                configuration: configuration, database: database, logger: TestDatabase.logger)
            try await services.prepareStore()
            // The one background service a request waits on: codes reach the SMS simulator through it.
            let dispatcher = Task { try await services.smsDispatcher.run() }
            defer { dispatcher.cancel() }
            let router = CountersignApp.makeRouter(services, outermost: contract)
            try await body(router, Application(router: router, logger: TestDatabase.logger))
        }
    }

    /// `{"error": {"code": …}}`.
    struct ErrorBody: Decodable {
        struct Detail: Decodable { let code: String }
        let error: Detail
    }
}
