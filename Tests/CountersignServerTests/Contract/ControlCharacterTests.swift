import CountersignAPI
import CountersignCodec
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Text a client sends is stored or compared as text: a control character in it (NUL above all,
/// which PostgreSQL cannot store) is refused with a 400 and a code on both engines, never a 500.
@Suite("Control characters")
struct ControlCharacterTests {
    /// POSTs `body` and checks status and code, and that no table gained or lost a row.
    static func expectRefused(
        _ server: LiveServer, _ path: String, _ body: [UInt8], token: String?, code: String, status: Int = 400,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await rowCounts(server.database)
        let response = try await server.client.send(.POST, path, raw: body, token: token)
        #expect(
            response.status == status && response.errorCode == code,
            "\(path) \(String(decoding: body.prefix(120), as: UTF8.self)): \(response.status) \(response.text)",
            sourceLocation: sourceLocation)
        #expect(try await rowCounts(server.database) == before, "\(path) wrote rows", sourceLocation: sourceLocation)
    }

    /// The row count of every table of the store.
    static func rowCounts(_ database: any Database) async throws -> [String: Int64] {
        let tables = try await database.read { sql in
            try await sql.query(
                database.engine == .postgres
                    ? "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
                    : "SELECT name FROM sqlite_master WHERE type = 'table'", []
            ).map { try $0.string("name") }
        }
        var counts: [String: Int64] = [:]
        for table in tables { counts[table] = try await LedgerAudit.count(table, database) }
        return counts
    }

    static func json(_ value: some Encodable) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }

    @Test(
        "a control character in any JSON string is 400 invalid_value, whatever the endpoint", arguments: TestEngines.all
    )
    func jsonStrings(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let product: (String) -> CreateProductRequest = {
                CreateProductRequest(
                    title: $0, askingPrice: 2_500, shipFromCountry: "NL", pickup: true, shippingMethods: [])
            }
            try await Self.expectRefused(
                server, "/products", try Self.json(product("Lamp\u{0}")), token: seller.token, code: "invalid_value")
            try await Self.expectRefused(
                server, "/user/addresses",
                try Self.json(
                    AddressBody(name: "B", line1: "Dam\u{0} 1", city: "Amsterdam", postalCode: "1012", country: "NL")),
                token: seller.token, code: "invalid_value")
            try await Self.expectRefused(
                server, "/auth/signup",
                try Self.json(SignupRequest(verificationId: "pv_x", code: "123456", name: "A\u{0}da", pin: "4827")),
                token: nil, code: "invalid_value")
            try await Self.expectRefused(
                server, "/auth/login", try Self.json(LoginRequest(phone: "\u{0}" + seller.phone, pin: seller.pin)),
                token: nil, code: "invalid_value")
            // Every C0 control, DEL and the C1 controls, escaped or not; tab and line feed included, as no
            // field of the API is multi-line.
            for title in [
                #""\u0001""#, #""a\nb""#, #""a\tb""#, #""a\bb""#, #""a\u007fb""#, #""a\u0085b""#, "\"a\u{7F}b\"",
                "\"a\u{85}b\"", #""\uD83D\uDE00\u0000""#,
            ] {
                let body =
                    #"{"title":"# + title
                    + #","askingPrice":2500,"shipFromCountry":"NL","pickup":true,"shippingMethods":[]}"#
                try await Self.expectRefused(
                    server, "/products", Array(body.utf8), token: seller.token, code: "invalid_value")
            }
            // Not over-refused: other text, and escapes that are not controls.
            let fine = try await server.client.post(
                "/products", product("Lampe \u{2013} \u{e9}t\u{e9} \u{1F600} \\ / \""), token: seller.token)
            #expect(fine.status == 201, "\(fine.text)")
        }
    }

    @Test("members the endpoint does not read are ignored, whatever they hold", arguments: TestEngines.all)
    func unknownMembersIgnored(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let body =
                #"{"title":"Lamp","askingPrice":2500,"shipFromCountry":"NL","pickup":true,"shippingMethods":[],"#
                + #""extra\u0001":{"x":"a\u0000b"}}"#
            let created = try await server.client.send(.POST, "/products", raw: Array(body.utf8), token: seller.token)
            #expect(created.status == 201, "\(created.text)")
        }
    }

    @Test(
        "bidi overrides and zero-width characters are taken out of titles, addresses and notes others see",
        arguments: TestEngines.all)
    func formatCharactersRemoved(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let created = try await server.client.post(
                "/products",
                CreateProductRequest(
                    title: "Lamp \u{202E}gpj.exe\u{200B}", askingPrice: 2_500, shipFromCountry: "NL", pickup: true,
                    shippingMethods: []), token: seller.token)
            #expect(created.status == 201, "\(created.text)")
            #expect(try created.decode(ProductResponse.self).title == "Lamp gpj.exe")
            let address = try await server.client.post(
                "/user/addresses",
                AddressBody(
                    name: "B\u{202E}ob", line1: "Dam 1", city: "Amster\u{200D}dam", postalCode: "1012", country: "NL"),
                token: seller.token)
            let stored = try address.decode(AddressBody.self)
            #expect(stored.name == "Bob" && stored.city == "Amsterdam", "\(address.text)")
        }
    }

    @Test(
        "the card of an order's payment: a NUL in paymentMethodId is 400 invalid_value, and no provider is called",
        arguments: TestEngines.all)
    func paymentMethodId(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await OrderPaymentTests.order(server, method: .card)
            try await Self.expectRefused(
                server, "/orders/\(order.id)/pay", try Self.json(PayOrderRequest(paymentMethodId: "pm_\u{0}")),
                token: buyer.token, code: "invalid_value")
            #expect(try await OrderPaymentTests.intents(server, order: order.id) == 0)
        }
    }

    @Test(
        "a challenge with a NUL in clientDataJSON is 400 malformed_client_data: passkey sign-in, payment verify",
        arguments: TestEngines.all)
    func clientDataChallenge(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            for challenge in ["\u{0}", "AAAA\u{0}", "a\nb", "not base64url!"] {
                var body = try server.assertion(device, challenge: "AAAA")
                let clientData = try JSONSerialization.data(withJSONObject: [
                    "type": "webauthn.get", "challenge": challenge, "origin": LiveServer.origin,
                ])
                body.response.clientDataJSON = Base64URL.encode(Array(clientData))
                try await Self.expectRefused(
                    server, "/auth/passkey/verify", try Self.json(body), token: nil, code: "malformed_client_data")
                try await Self.expectRefused(
                    server, "/biometric/auth/verify", try Self.json(body), token: user.token,
                    code: "malformed_client_data")
            }
        }
    }

    @Test(
        "a provider's signed webhook is not refused over a member it does not read; an order id with a NUL is ignored",
        arguments: TestEngines.all)
    func webhook(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, intentId, page) = try await PaymentWebhookTests.pendingIdeal(server)
            try await PaymentWebhookTests.authorize(server, page: page)
            let forNobody = PaymentWebhookTests.event(
                "payment_intent.succeeded", intentId: intentId, orderId: "\\u0000")
            let ignored = try await PaymentWebhookTests.send(server, forNobody)
            #expect(ignored.status == 200, "\(ignored.text)")
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paymentPending)
            // A line break in a member the server never reads, as a payer's address or an error message may have.
            var event = PaymentWebhookTests.event("payment_intent.succeeded", intentId: intentId, orderId: order.id)
            event.insert(contentsOf: Array(#""description":"line\nbreak","#.utf8), at: 1)
            let settled = try await PaymentWebhookTests.send(server, event)
            #expect(settled.status == 200, "\(settled.text)")
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
        }
    }

    @Test("query parameters: a control character is 400, a cursor that decodes to one too", arguments: TestEngines.all)
    func queryParameters(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let nulCursor = Base64URL.encode(Array("1700000000000|\u{0}".utf8))
            for (path, code) in [
                ("/user/transactions?cursor=\(nulCursor)", "invalid_cursor"),
                ("/user/transactions?cursor=%00", "invalid_value"),
                ("/user/transactions?limit=1%0A", "invalid_value"),
                ("/user/orders?limit=%001", "invalid_value"),
                ("/products?seller=me%00", "invalid_value"),
                (
                    "/biometric/auth/options?amount=500&productCode=AIRTIME_MTN&recipientPhone=0801234567%00",
                    "invalid_value"
                ),
            ] {
                let response = try await server.client.get(path, token: user.token)
                #expect(response.status == 400 && response.errorCode == code, "\(path): \(response.text)")
            }
            let fine = try await server.client.get("/user/transactions?limit=5", token: user.token)
            #expect(fine.status == 200, "\(fine.text)")
        }
    }
}
