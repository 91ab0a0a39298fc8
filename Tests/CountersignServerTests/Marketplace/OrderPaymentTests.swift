import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Paying an order through the simulated provider: one payment per order, whatever the retries,
/// races and abandoned redirects.
@Suite("Order payments")
struct OrderPaymentTests {
    static func order(_ server: LiveServer, method: PaymentMethodKind) async throws -> (
        buyer: TestUser, order: OrderResponse
    ) {
        let (buyer, order, _) = try await orderWithSeller(server, method: method)
        return (buyer, order)
    }

    static func orderWithSeller(_ server: LiveServer, method: PaymentMethodKind) async throws -> (
        buyer: TestUser, order: OrderResponse, seller: TestUser
    ) {
        let (seller, buyer, bid, _) = try await OrderTests.acceptedBid(server)
        let order = try await server.client.post(
            "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: method),
            token: buyer.token
        ).decode(OrderResponse.self)
        return (buyer, order, seller)
    }

    static func card(_ server: LiveServer, _ user: TestUser, _ number: String) async throws -> String {
        let added = try await server.client.post(
            "/payment-methods/cards",
            AddCardRequest(number: number, expMonth: 12, expYear: SimulatedPaymentProviderTests.expYear),
            token: user.token)
        try #require(added.status == 201, "add card: \(added.text)")
        return try added.decode(SavedCardResponse.self).id
    }

    static func intents(_ server: LiveServer, order: String) async throws -> Int64 {
        try await LedgerAudit.count("sim_payment_intents WHERE order_id = '\(order)'", server.database)
    }

    @Test(
        "a card that succeeds pays the order once; the bid completes; a second pay is refused",
        arguments: TestEngines.all)
    func cardSucceeds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await Self.order(server, method: .card)
            let card = try await Self.card(server, buyer, "4242 4242 4242 4242")
            #expect(
                try await server.client.get("/payment-methods/cards", token: buyer.token).decode(SavedCardList.self)
                    .cards.map(\.last4) == ["4242"])
            let noCard = try await server.client.post("/orders/\(order.id)/pay", PayOrderRequest(), token: buyer.token)
            #expect(noCard.status == 400 && noCard.errorCode == "payment_method_required")
            for (bad, code) in [
                ("javascript:alert(1)", "invalid_return_url"), ("/relative", "invalid_return_url"),
                // Control characters are refused for every string of every body, before the URL is read.
                ("https://app.example/\r\nSet-Cookie: x=1", "invalid_value"),
                ("https://" + String(repeating: "a", count: 2048), "invalid_return_url"), ("", "invalid_return_url"),
                ("1x://y", "invalid_return_url"), ("javascript://%0Aalert(1)", "invalid_return_url"),
                ("DATA://text/html,x", "invalid_return_url"),
            ] {
                let refused = try await server.client.post(
                    "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card, returnURL: bad),
                    token: buyer.token)
                #expect(refused.status == 400 && refused.errorCode == code, "\(bad.prefix(40)): \(refused.text)")
            }
            #expect(try await Self.intents(server, order: order.id) == 0, "a refused pay reaches no provider")
            let paid = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(paid.orderStatus == .paid && paid.paymentStatus == "succeeded")
            #expect(
                try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(BidResponse.self).status
                    == .completed)
            let again = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token)
            #expect(again.status == 409 && again.errorCode == "order_paid")
            #expect(try await Self.intents(server, order: order.id) == 1)
        }
    }

    @Test(
        "a declined card returns the order to NEW with the reason; another card then pays", arguments: TestEngines.all)
    func declinedThenRetry(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await Self.order(server, method: .card)
            let declined = try await Self.card(server, buyer, "4000 0000 0000 0002")
            let first = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: declined), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(first.orderStatus == .new && first.error?.code == "card_declined")
            let good = try await Self.card(server, buyer, "4242424242424242")
            let second = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: good), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(second.orderStatus == .paid && second.error == nil)
            #expect(try await Self.intents(server, order: order.id) == 2)
        }
    }

    @Test("eight concurrent pays on one order take one payment", arguments: TestEngines.all)
    func concurrentPays(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await Self.order(server, method: .card)
            let card = try await Self.card(server, buyer, "4242 4242 4242 4242")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.client.post(
                            "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "\(statuses)")
            #expect(try await Self.intents(server, order: order.id) == 1)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 1, "the payment is booked once")
        }
    }

    @Test("iDEAL: redirect, the payer authorizes on the hosted page, the poll sees PAID", arguments: TestEngines.all)
    func idealRedirect(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, seller) = try await Self.orderWithSeller(server, method: .ideal)
            let started = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(returnURL: "https://app.example/return"), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(started.orderStatus == .paymentPending && started.paymentStatus == "requires_action")
            let redirect = try #require(started.redirectURL)
            // The seller sees the payment pending, but not the buyer's page to act on.
            let sellerView = try await server.client.get("/orders/\(order.id)/payment", token: seller.token).decode(
                OrderPaymentResponse.self)
            #expect(sellerView.orderStatus == .paymentPending && sellerView.redirectURL == nil)
            let path = try #require(URLComponents(string: redirect)?.path)
            #expect(
                try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).decode(
                    OrderPaymentResponse.self
                ).orderStatus == .paymentPending)
            try await SimulatedPaymentProviderTests.withBrowser(server) { browser in
                let authorized = try await browser.send(.POST, path + "/authorize")
                #expect(authorized.status == 303)
                #expect(authorized.headers.first(name: "Location")?.hasPrefix("https://app.example/return?") == true)
            }
            let polled = try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).decode(
                OrderPaymentResponse.self)
            #expect(polled.orderStatus == .paid)
        }
    }

    @Test(
        "an abandoned buy-now: the payer walks away, the app withdraws the bid, nothing is stuck",
        arguments: TestEngines.all)
    func abandonedBuyNow(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await Self.order(server, method: .bancontact)
            _ = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(returnURL: "https://app.example/return"), token: buyer.token)
            for _ in 0..<3 {
                #expect(
                    try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).decode(
                        OrderPaymentResponse.self
                    ).orderStatus == .paymentPending)
            }
            let withdrawn = try await server.client.post("/bids/\(order.bidId)/withdraw", token: buyer.token)
            #expect(withdrawn.status == 200, "\(withdrawn.text)")
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .canceled)
            let intentStatus = try await server.database.read { sql in
                try await sql.first("SELECT status FROM sim_payment_intents WHERE order_id = $1", [.text(order.id)])?
                    .string("status")
            }
            #expect(intentStatus == "canceled")
            // The product can be bought again by someone else.
            let other = try await server.signup()
            #expect(
                try await server.client.post("/products/\(order.productId)/buy-now", token: other.token).status == 201)
        }
    }
}

extension OrderPaymentTests {
    @Test(
        "an abandoned iDEAL payment canceled by the buyer: the order is NEW, the intent canceled, and a card then pays once",
        arguments: TestEngines.all)
    func cancelThenPayByCard(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, intentId, _) = try await PaymentWebhookTests.pendingIdeal(server)
            let stranger = try await server.signup()
            #expect(
                try await server.client.post("/orders/\(order.id)/payment/cancel", token: stranger.token).errorCode
                    == "order_not_found")
            let canceled = try await server.client.post("/orders/\(order.id)/payment/cancel", token: buyer.token)
            #expect(canceled.status == 200, "\(canceled.text)")
            let answer = try canceled.decode(OrderPaymentResponse.self)
            #expect(answer.orderStatus == .new && answer.error?.code == "payment_canceled")
            let intentStatus = try await server.database.read { sql in
                try await sql.first("SELECT status FROM sim_payment_intents WHERE id = $1", [.text(intentId)])?.string(
                    "status")
            }
            #expect(intentStatus == "canceled")
            let again = try await server.client.post("/orders/\(order.id)/payment/cancel", token: buyer.token).decode(
                OrderPaymentResponse.self)
            #expect(again.orderStatus == .new, "nothing under way: reported as it is")

            let byCard = try await server.client.post(
                "/orders", CheckoutTotalsRequest(bidId: order.bidId, delivery: "pickup", paymentMethod: .card),
                token: buyer.token)
            #expect(byCard.status == 200)
            #expect(try byCard.decode(OrderResponse.self).id == order.id, "the same order, now by card")
            let card = try await Self.card(server, buyer, "4242 4242 4242 4242")
            let paid = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(paid.orderStatus == .paid)
            let late = try await server.client.post("/orders/\(order.id)/payment/cancel", token: buyer.token)
            #expect(late.status == 409 && late.errorCode == "order_paid")
            #expect(try await Self.intents(server, order: order.id) == 2)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 1)
        }
    }
}

extension OrderPaymentTests {
    @Test("return URLs lead only to configured origins and app schemes: the simulator's page is no open redirect")
    func returnURLPolicy() throws {
        let policy = try ReturnURLPolicy(allowing: ["https://Shop.Example", "http://localhost:8080", "myapp:"])
        for good in [
            "https://shop.example/return?o=1", "https://shop.example:443/r", "http://localhost:8080/r",
            "MyApp://checkout/return",
        ] {
            #expect(policy.permits(good), "\(good)")
        }
        for bad in [
            "https://evil.example/return", "https://shop.example.evil.example/r", "https://shop.example@evil.example/r",
            "https://evil.example\\@shop.example/", "http://shop.example/r", "https://shop.example:8443/r",
            "http://localhost:8081/r",
            "otherapp://x", "javascript://shop.example/%0aalert(1)", "https://localhost:8080/r",
        ] {
            #expect(!policy.permits(bad), "\(bad)")
        }
        #expect(throws: ReturnURLPolicyError.self) { try ReturnURLPolicy(allowing: ["javascript:"]) }
        for entry in [
            "shop.example", "https://shop.example/app", "https://shop.example/?x=1", "https://shop.example#f",
        ] {
            #expect(throws: ReturnURLPolicyError.self, "\(entry)") { try ReturnURLPolicy(allowing: [entry]) }
        }
        #expect((try? ReturnURLPolicy(allowing: ["https://shop.example/"])) != nil)
    }

    @Test("pay refuses a return URL outside the configured origins, and nothing is started", arguments: TestEngines.all)
    func openRedirectRefused(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order) = try await Self.order(server, method: .ideal)
            let refused = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(returnURL: "https://evil.example/return"), token: buyer.token
            )
            #expect(refused.status == 400 && refused.errorCode == "invalid_return_url", "\(refused.text)")
            #expect(try await Self.intents(server, order: order.id) == 0)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .new)
        }
    }

    @Test("return URLs: web and app schemes pass; relative, script, control characters and overlong ones do not")
    func returnURLs() {
        for good in [
            "https://app.example/return", "http://localhost:8080/r?x=1", "myapp://checkout/return",
            "com.example.app://pay",
        ] {
            #expect(MarketplaceService.isReturnURL(good), "\(good)")
        }
        for bad in [
            "", "/return", "app.example/return", "javascript://x", "VBScript://x", "file:///etc/passwd", "https://a b",
            "https://x\u{7F}", "https:/x", "9app://x", "https://",
        ] {
            #expect(!MarketplaceService.isReturnURL(bad), "\(bad)")
        }
    }
}
