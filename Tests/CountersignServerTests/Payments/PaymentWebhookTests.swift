import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Provider webhooks and the pending-order sweeper: signed, fresh, idempotent, and never a second
/// settlement, whatever the order of webhooks and polls.
@Suite("Payment webhooks and the order sweeper")
struct PaymentWebhookTests {
    /// An iDEAL order whose payment waits on the hosted page; returns the intent id too.
    static func pendingIdeal(_ server: LiveServer) async throws -> (
        buyer: TestUser, order: OrderResponse, intentId: String, page: String
    ) {
        let (buyer, order) = try await OrderPaymentTests.order(server, method: .ideal)
        let started = try await server.client.post(
            "/orders/\(order.id)/pay", PayOrderRequest(returnURL: "https://app.example/return"), token: buyer.token
        ).decode(OrderPaymentResponse.self)
        let redirect = try #require(started.redirectURL)
        let page = try #require(URLComponents(string: redirect)?.path)
        return (buyer, order, String(page.split(separator: "/").last ?? ""), page)
    }

    static func event(_ type: String, intentId: String, orderId: String) -> [UInt8] {
        Array(
            #"{"id":"evt_\#(UUID().uuidString)","type":"\#(type)","data":{"object":{"id":"\#(intentId)","metadata":{"orderId":"\#(orderId)"}}}}"#
                .utf8)
    }

    static func send(
        _ server: LiveServer, _ body: [UInt8], secret: String = LiveServer.webhookSecret, ageSeconds: Int64 = 0,
        signed: Bool = true
    ) async throws -> APIResponse {
        let timestamp = server.clock.wallClock.nowMillis() / 1000 - ageSeconds
        let header = WebhookSignature(secret: Array(secret.utf8)).header(body: body, timestamp: timestamp)
        return try await server.client.send(
            .POST, "/webhooks/payments", raw: body, headers: signed ? [("Countersign-Signature", header)] : [])
    }

    static func authorize(_ server: LiveServer, page: String) async throws {
        try await SimulatedPaymentProviderTests.withBrowser(server) { browser in
            let answer = try await browser.send(.POST, page + "/authorize")
            #expect(answer.status == 303)
        }
    }

    @Test("unsigned, wrongly signed and stale webhooks are 400 and change nothing", arguments: TestEngines.all)
    func refused(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (_, order, intentId, page) = try await Self.pendingIdeal(server)
            try await Self.authorize(server, page: page)
            let body = Self.event("payment_intent.succeeded", intentId: intentId, orderId: order.id)
            let unsigned = try await Self.send(server, body, signed: false)
            #expect(unsigned.status == 400 && unsigned.errorCode == "invalid_signature")
            let forged = try await Self.send(server, body, secret: "another-secret-0123456789abcdef0123456")
            #expect(forged.status == 400 && forged.errorCode == "invalid_signature")
            let stale = try await Self.send(server, body, ageSeconds: 600)
            #expect(stale.status == 400 && stale.errorCode == "stale_signature")
            // Nobody polled and every webhook was refused: the order still waits.
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT status FROM orders WHERE id = $1", [.text(order.id)])?.string("status")
            }
            #expect(stored == "PAYMENT_PENDING")
        }
    }

    @Test(
        "a signed webhook settles the order from the provider's word; duplicates and late events are harmless",
        arguments: TestEngines.all)
    func settles(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, intentId, page) = try await Self.pendingIdeal(server)
            try await Self.authorize(server, page: page)
            #expect(
                try await Self.send(
                    server, Self.event("payment_intent.succeeded", intentId: intentId, orderId: order.id)
                ).status == 200)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
            // The same event again, and an out-of-order failure event: the provider says succeeded.
            #expect(
                try await Self.send(
                    server, Self.event("payment_intent.succeeded", intentId: intentId, orderId: order.id)
                ).status == 200)
            #expect(
                try await Self.send(
                    server, Self.event("payment_intent.payment_failed", intentId: intentId, orderId: order.id)
                ).status == 200)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
            #expect(
                try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(BidResponse.self).status
                    == .completed)
            // An event about an order we do not know is acknowledged and ignored.
            #expect(
                try await Self.send(
                    server, Self.event("payment_intent.succeeded", intentId: "pi_x", orderId: "ord_unknown")
                ).status == 200)
        }
    }

    @Test("webhooks and polls racing settle the order once", arguments: TestEngines.all)
    func race(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, intentId, page) = try await Self.pendingIdeal(server)
            try await Self.authorize(server, page: page)
            let body = Self.event("payment_intent.succeeded", intentId: intentId, orderId: order.id)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? try await Self.send(server, body).status
                            : try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
            #expect(try await OrderPaymentTests.intents(server, order: order.id) == 1)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 1, "the payment is booked once")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("the sweeper settles an order whose payer paid but never came back", arguments: TestEngines.all)
    func sweeper(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, _, page) = try await Self.pendingIdeal(server)
            try await Self.authorize(server, page: page)
            // Too young to sweep.
            #expect(await server.services.pendingOrderSweeper.sweep() == 0)
            server.clock.advance(seconds: 180)
            #expect(await server.services.pendingOrderSweeper.sweep() == 1)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
        }
    }
}
