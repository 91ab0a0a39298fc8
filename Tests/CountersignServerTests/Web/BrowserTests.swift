import CountersignAPI
import CountersignClient
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// What the server does for browsers: the web app's files, the session cookie and its Origin
/// check, CORS, streams `EventSource` can use, and passkey sign-in.
@Suite("Browsers")
struct BrowserTests {
    static let ownOrigin = LiveServer.origin

    /// A web root with a page, a module, a nested file, a dotfile and a file of a type not served.
    static func webRoot() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try "<!doctype html><title>t</title>".write(
            to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "export const a = 1;".write(to: root.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
        try "export const b = 2;".write(
            to: root.appendingPathComponent("screens/home.js"), atomically: true, encoding: .utf8)
        try "secret".write(to: root.appendingPathComponent(".env.js"), atomically: true, encoding: .utf8)
        try "notes".write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        // A link out of the root must not be followed.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).js")
        try "leak".write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("leak.js"), withDestinationURL: outside)
        return root.path
    }

    @Test("the web app's files are served with their type, a strict CSP on pages, and revalidation by ETag")
    func webFiles() async throws {
        let root = try Self.webRoot()
        try await LiveServer.run(.sqlite, configure: { $0.web = .directory(root) }) { server in
            let page = try await server.client.get("/")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(
                policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'")
                    && !policy.contains("unsafe-inline"))
            #expect(page.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(page.headers.first(name: "X-Frame-Options") == "DENY")
            #expect(page.headers.first(name: "Cache-Control") == "no-cache")

            let module = try await server.client.get("/screens/home.js")
            #expect(module.status == 200 && module.text == "export const b = 2;")
            #expect(module.headers.first(name: "Content-Type") == "text/javascript; charset=utf-8")
            let etag = try #require(module.headers.first(name: "ETag"))
            let again = try await server.client.send(.GET, "/screens/home.js", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)

            for path in [
                "/.env.js", "/README.md", "/leak.js", "/../outside.js", "/screens/../app.js", "/%2e%2e/app.js",
                "/nothing.js",
            ] {
                let response = try await server.client.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(response.errorCode == "not_found", "\(path)")
            }
            // The API's answers are not replaced by files, and only GET and HEAD read files.
            #expect(try await server.client.get("/user/wallet").status == 401)
            #expect(
                try await server.client.send(
                    .POST, "/app.js", json: [String: String](), headers: [("Origin", Self.ownOrigin)]
                ).status == 404)
        }
    }

    @Test("--no-web serves no page; the API is unchanged")
    func noWeb() async throws {
        try await LiveServer.run(.sqlite, configure: { $0.web = .off }) { server in
            let page = try await server.client.get("/")
            #expect(page.status == 404 && page.errorCode == "not_found")
            #expect(try await server.client.get("/health").status == 200)
        }
    }

    @Test("every API answer carries the security headers and a CSP that allows nothing")
    func apiHeaders() async throws {
        try await LiveServer.run(.sqlite) { server in
            for response in [try await server.client.get("/health"), try await server.client.get("/user/wallet")] {
                #expect(
                    response.headers.first(name: "Content-Security-Policy")
                        == "default-src 'none'; frame-ancestors 'none'")
                #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(response.headers.first(name: "Referrer-Policy") == "same-origin")
            }
        }
    }

    /// The cookie a response sets, as `name=value`.
    static func cookie(_ response: APIResponse) throws -> (pair: String, attributes: String) {
        let header = try #require(response.headers["Set-Cookie"].first { $0.contains("countersign_session=") })
        let parts = header.split(separator: ";", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }

    @Test(
        "signup and login set an HttpOnly SameSite=Strict session cookie that works like the token",
        arguments: TestEngines.all)
    func sessionCookie(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let phone = TestPhones.next()
            let signup = try await server.client.post(
                "/auth/signup", try await server.client.signupBody(phone: phone, name: "Ada", pin: "4827"))
            let (pair, attributes) = try Self.cookie(signup)
            let token = try signup.decode(SessionResponse.self).sessionToken
            #expect(pair == "countersign_session=\(token)")
            #expect(
                attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict")
                    && attributes.contains("Path=/"))
            #expect(!attributes.contains("Secure"), "an http server's cookie cannot be Secure")

            #expect(
                try await server.client.send(.GET, "/user/wallet", headers: [("Cookie", "theme=dark; \(pair)")]).status
                    == 200)
            #expect(
                try await server.client.send(.GET, "/user/wallet", headers: [("Cookie", "countersign_session=forged")])
                    .status == 401)

            // The device cookie: long-lived, HttpOnly, SameSite=Strict, and not the session.
            let device = try #require(
                signup.headers["Set-Cookie"].first { $0.hasPrefix("countersign_device=") })
            let deviceToken = try #require(try signup.decode(SessionResponse.self).deviceToken)
            #expect(device.hasPrefix("countersign_device=\(deviceToken);"))
            #expect(device.contains("HttpOnly") && device.contains("SameSite=Strict") && device.contains("Max-Age="))
            #expect(deviceToken != token)
            // A browser that held a session signs in with the PIN alone, by its device cookie.
            let login = try await server.client.send(
                .POST, "/auth/login", json: LoginRequest(phone: phone, pin: "4827"),
                headers: [("Cookie", String(device.split(separator: ";")[0]))])
            #expect(login.status == 200, "\(login.text)")
            let (loginPair, _) = try Self.cookie(login)
            #expect(loginPair == "countersign_session=\(try login.decode(SessionResponse.self).sessionToken)")

            // Logout by cookie (with our Origin) clears it, and the session is over.
            let logout = try await server.client.send(
                .POST, "/auth/logout", headers: [("Cookie", pair), ("Origin", Self.ownOrigin)])
            #expect(logout.status == 204)
            #expect(try Self.cookie(logout).attributes.contains("Max-Age=0"))
            #expect(try await server.client.send(.GET, "/user/wallet", headers: [("Cookie", pair)]).status == 401)
        }
    }

    @Test("over https the cookie is Secure and __Host- prefixed")
    func secureCookie() async throws {
        try await LiveServer.run(.sqlite, configure: { $0.publicBaseURL = "https://pay.example" }) { server in
            let signup = try await server.client.post(
                "/auth/signup", try await server.client.signupBody(phone: TestPhones.next(), name: "Ada", pin: "4827"))
            let (pair, attributes) = try Self.cookie(signup)
            #expect(pair.hasPrefix("__Host-countersign_session="))
            #expect(attributes.contains("Secure"))
            #expect(try await server.client.send(.GET, "/user/wallet", headers: [("Cookie", pair)]).status == 200)
        }
    }

    @Test(
        "a cookie-authenticated change needs our Origin; another site's page is refused and nothing is written",
        arguments: TestEngines.all)
    func crossSiteRequests(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let cookie = ("Cookie", "countersign_session=\(user.token)")
            let step = RegistrationOptionsRequest(pin: user.pin)
            // No Origin, or a foreign one: refused before anything runs.
            for origin in [nil, "https://evil.example", "null", "https://app.countersign.test.evil.example"] {
                let headers = [cookie] + (origin.map { [("Origin", $0)] } ?? [])
                let response = try await server.client.send(.POST, "/auth/logout-all", json: step, headers: headers)
                #expect(response.status == 403 && response.errorCode == "origin_refused", "\(origin ?? "no Origin")")
            }
            #expect(
                try await server.client.get("/user/wallet", token: user.token).status == 200, "the session survived")
            // Even with the bearer token, a foreign page's change is refused (a token leaked into a page).
            let bearer = try await server.client.send(
                .POST, "/auth/logout", token: user.token, headers: [("Origin", "https://evil.example")])
            #expect(bearer.status == 403)
            // A form post cannot carry JSON: 415 before the session is even looked at.
            let form = try await server.client.send(
                .POST, "/biometric/register/options", raw: Array("pin=1234".utf8),
                headers: [cookie, ("Origin", Self.ownOrigin), ("Content-Type", "application/x-www-form-urlencoded")])
            #expect(form.status == 415)
            // Our own page may.
            let ours = try await server.client.send(
                .POST, "/biometric/register/options", json: step, headers: [cookie, ("Origin", Self.ownOrigin)])
            #expect(ours.status == 200, "\(ours.text)")
        }
    }

    @Test("CORS: configured origins get preflights and readable answers, errors included; others get nothing")
    func cors() async throws {
        let shop = "https://shop.example"
        try await LiveServer.run(.sqlite, configure: { $0.corsOrigins = [shop] }) { server in
            let preflight = try await server.client.send(
                .OPTIONS, "/user/topup",
                headers: [
                    ("Origin", shop), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "authorization, content-type, idempotency-key"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers.first(name: "Access-Control-Allow-Origin") == shop)
            #expect(preflight.headers.first(name: "Access-Control-Allow-Credentials") == "true")
            let allowed = try #require(preflight.headers.first(name: "Access-Control-Allow-Headers"))
            for header in ["Authorization", "Content-Type", "Idempotency-Key"] { #expect(allowed.contains(header)) }
            #expect(preflight.headers.first(name: "Access-Control-Allow-Methods")?.contains("POST") == true)

            let refused = try await server.client.send(
                .OPTIONS, "/user/topup",
                headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST")])
            #expect(refused.status == 403 && refused.headers.first(name: "Access-Control-Allow-Origin") == nil)

            // An error from a CORS origin is readable, with the headers a client needs exposed.
            let user = try await server.signup()
            let locked = try await server.client.send(.GET, "/user/wallet", headers: [("Origin", shop)])
            #expect(locked.status == 401 && locked.headers.first(name: "Access-Control-Allow-Origin") == shop)
            #expect(locked.headers.first(name: "Access-Control-Expose-Headers")?.contains("Retry-After") == true)
            #expect(
                locked.headers.first(name: "Access-Control-Expose-Headers")?.contains("Idempotent-Replayed") == true)
            let change = try await server.client.send(
                .POST, "/auth/logout", token: user.token, headers: [("Origin", shop)])
            #expect(change.status == 204 && change.headers.first(name: "Vary") == "Origin")
        }
        try await LiveServer.run(.sqlite) { server in
            let preflight = try await server.client.send(
                .OPTIONS, "/user/topup", headers: [("Origin", shop), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 403, "no CORS origin is configured by default")
        }
    }

    @Test(
        "the event stream opens with the cookie, and answers 204 once the client has the final version",
        arguments: TestEngines.all)
    func streamForBrowsers(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let created = try await server.createTransfer(payer, to: payee.phone)
            let document = try created.decode(TransferDocument.self)

            let stream = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", cookie: "countersign_session=\(payer.token)",
                lastEventID: "0")
            let quoted = await stream.wait {
                $0.last.map { (try? $0.document().status) == .authorizationRequired } ?? false
            }
            stream.close()
            #expect(stream.status == 200)
            #expect(quoted.allSatisfy { $0.event == "message" })
            let quote = try #require(quoted.last).document()

            let declined = try await server.client.post("/transfers/\(document.id)/decline", token: payer.token).decode(
                TransferDocument.self)
            #expect(declined.status == .declined)
            // Behind the final version: it is sent, then the stream ends.
            let behind = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", token: payer.token,
                lastEventID: String(quote.sequence))
            let rest = await behind.wait { $0.contains { (try? $0.document().status) == .declined } }
            behind.close()
            // Every version after the one seen, in order, to the final one (the worker may have written
            // another before the decline: the first stream stops at the first quoted version it sees).
            #expect(
                rest.map(\.id)
                    == stride(from: quote.sequence + 1, through: declined.sequence, by: 1).map { Optional($0) })
            // At it: 204, which stops an EventSource for good.
            let done = try await server.client.send(
                .GET, "/transfers/\(document.id)/events", token: payer.token,
                headers: [("Last-Event-ID", String(declined.sequence))])
            #expect(done.status == 204 && done.body.isEmpty)
        }
    }

    /// Options → sign with the user's handle → verify.
    static func passkeySignIn(
        _ server: LiveServer, device: DeviceAuthenticator, userHandle: String?,
        mutate: (inout AuthenticationResponseJSON) -> Void = { _ in }
    ) async throws -> APIResponse {
        let options = try await server.client.post("/auth/passkey/options").decode(PasskeySignInOptionsResponse.self)
        #expect(options.allowCredentials.isEmpty)
        var assertion = try APIClient.assertion(device, challenge: options.challenge)
        assertion.response.userHandle = userHandle
        mutate(&assertion)
        return try await server.client.post("/auth/passkey/verify", assertion)
    }

    static func userHandle(_ server: LiveServer, _ user: TestUser) async throws -> String {
        try #require(
            try await server.database.read { sql in try await sql.users.find(id: user.userId) }
        ).userHandle
    }

    @Test("a passkey signs its user in, once per challenge, and sets the cookie", arguments: TestEngines.all)
    func passkeySignIn(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.registerDevice(try await server.signup())
            let device = try #require(user.device)
            let handle = try await Self.userHandle(server, user)

            let signedIn = try await Self.passkeySignIn(server, device: device, userHandle: handle)
            #expect(signedIn.status == 200, "\(signedIn.text)")
            let session = try signedIn.decode(SessionResponse.self)
            #expect(session.userId == user.userId)
            #expect(try Self.cookie(signedIn).pair == "countersign_session=\(session.sessionToken)")
            #expect(try await server.client.get("/user/wallet", token: session.sessionToken).status == 200)

            // The same assertion again: its challenge is spent.
            let options = try await server.client.post("/auth/passkey/options").decode(
                PasskeySignInOptionsResponse.self)
            var assertion = try APIClient.assertion(device, challenge: options.challenge)
            assertion.response.userHandle = handle
            #expect(try await server.client.post("/auth/passkey/verify", assertion).status == 200)
            let replay = try await server.client.post("/auth/passkey/verify", assertion)
            #expect(replay.status == 401 && replay.errorCode == "passkey_sign_in_failed")
        }
    }

    @Test(
        "passkey sign-in refuses another user's handle, no handle, a revoked key, a bad signature; failures never lock payments",
        arguments: TestEngines.all)
    func passkeySignInRefusals(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let other = try await server.signup()
            let device = try #require(user.device)
            let handle = try await Self.userHandle(server, user)
            let otherHandle = try await Self.userHandle(server, other)

            var refusals = [
                try await Self.passkeySignIn(server, device: device, userHandle: otherHandle),
                try await Self.passkeySignIn(server, device: device, userHandle: nil),
            ]
            for _ in 0..<6 {
                refusals.append(
                    try await Self.passkeySignIn(server, device: device, userHandle: handle) { assertion in
                        var signature = Base64URL.decode(assertion.response.signature) ?? []
                        signature[signature.count - 1] ^= 0x01
                        assertion.response.signature = Base64URL.encode(signature)
                    })
            }
            for refusal in refusals {
                #expect(refusal.status == 401 && refusal.errorCode == "passkey_sign_in_failed", "\(refusal.text)")
            }
            // Six bad signatures for a known key: the owner can still pay.
            #expect(try await server.authOptions(user).status == 200)

            let credentialId = Base64URL.encode(device.credentialId)
            #expect(
                try await server.client.send(.DELETE, "/biometric/credentials/\(credentialId)", token: user.token)
                    .status == 204)
            let revoked = try await Self.passkeySignIn(server, device: device, userHandle: handle)
            #expect(revoked.status == 401 && revoked.errorCode == "passkey_sign_in_failed")
        }
    }
}
