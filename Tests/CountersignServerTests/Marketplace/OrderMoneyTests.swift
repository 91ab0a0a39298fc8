import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Where a marketplace payment's money goes (the ledger), the seller's side of an order (shipped,
/// completed), and bids that run out of time.
@Suite("Order money and expiry")
struct OrderMoneyTests {
    /// How many ledger entries of `kind` belong to the order.
    static func bookings(_ server: LiveServer, order: String, kind: String = "order_payment") async throws -> Int64 {
        try await LedgerAudit.count(
            "ledger_transactions WHERE kind = '\(kind)' AND reference = '\(order)'", server.database)
    }

    static func balance(_ server: LiveServer, _ account: String) async throws -> Int64 {
        try await server.database.read { sql in
            try await sql.first(
                "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM postings WHERE account_id = $1",
                [.text(account)])?.int("total") ?? -1
        }
    }

    @Test(
        "a paid order books the total once; shipped and received, the seller's money leaves escrow",
        arguments: TestEngines.all)
    func paymentToRelease(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, bid, address) = try await OrderTests.acceptedBid(server)
            let order = try await server.client.post(
                "/orders",
                CheckoutTotalsRequest(
                    bidId: bid.id, delivery: "postnl_standard", addressId: address, paymentMethod: .card),
                token: buyer.token
            ).decode(OrderResponse.self)
            // 10,000 + 695 shipping + 2.9% of 10,695 (310) = 11,005.
            #expect(order.totals.total == 11_005 && order.totals.paymentFee == 310)
            let card = try await OrderPaymentTests.card(server, buyer, "4242 4242 4242 4242")
            let paid = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
            ).decode(OrderPaymentResponse.self)
            #expect(paid.orderStatus == .paid)
            for _ in 0..<3 { _ = try await server.client.get("/orders/\(order.id)/payment", token: buyer.token) }
            #expect(try await Self.bookings(server, order: order.id) == 1)
            #expect(try await Self.balance(server, "sys:provider_clearing:EUR") == -11_005)
            #expect(try await Self.balance(server, "acct:\(seller.userId):escrow:EUR") == 10_695)
            #expect(try await Self.balance(server, "sys:payment_fees:EUR") == 310)
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 10_695, payable: 0, currency: "EUR"))

            // Each side acts only on its own step, in order.
            let buyerShips = try await server.client.post("/orders/\(order.id)/ship", token: buyer.token)
            #expect(buyerShips.status == 403 && buyerShips.errorCode == "not_seller")
            let early = try await server.client.post("/orders/\(order.id)/complete", token: buyer.token)
            #expect(early.status == 409 && early.errorCode == "invalid_state")
            let stranger = try await server.signup()
            let strangerShips = try await server.client.post("/orders/\(order.id)/ship", token: stranger.token)
            #expect(strangerShips.status == 404 && strangerShips.errorCode == "order_not_found")
            let shipped = try await server.client.post("/orders/\(order.id)/ship", token: seller.token)
            #expect(shipped.status == 200)
            #expect(try shipped.decode(OrderResponse.self).status == .shipped)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 409)
            let sellerCompletes = try await server.client.post("/orders/\(order.id)/complete", token: seller.token)
            #expect(sellerCompletes.status == 403 && sellerCompletes.errorCode == "not_buyer")

            let completed = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(completed.sorted() == [200, 409, 409, 409], "one completion wins: \(completed)")
            #expect(try await Self.bookings(server, order: order.id, kind: "order_release") == 1)
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 0, payable: 10_695, currency: "EUR"))
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .completed)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "an unpaid buy-now expires after 30 minutes with its order; the product is free again",
        arguments: TestEngines.all)
    func buyNowExpires(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let placedAt = server.clock.wallClock.nowMillis()
            let (buyer, order) = try await OrderPaymentTests.order(server, method: .card)
            let sweeper = server.services.pendingOrderSweeper
            let held = try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(BidResponse.self)
            #expect(
                held.expiresAt == WallClock.iso8601(millis: placedAt + 30 * 60_000),
                "the buyer is told how long the product is held")
            server.clock.advance(seconds: 29 * 60)
            #expect(await sweeper.expire() == 0, "not yet")
            server.clock.advance(seconds: 2 * 60)
            #expect(await sweeper.expire() == 1)
            let expired = try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(
                BidResponse.self)
            #expect(expired.status == .expired && expired.expiresAt == nil)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .expired)
            let card = try await OrderPaymentTests.card(server, buyer, "4242 4242 4242 4242")
            let late = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token)
            #expect(late.status == 409 && late.errorCode == "order_closed")
            #expect(try await OrderPaymentTests.intents(server, order: order.id) == 0, "nothing was charged")
            #expect(
                try await server.client.get("/products/\(order.productId)", token: buyer.token).decode(
                    ProductResponse.self
                ).available)
            let other = try await server.signup()
            #expect(
                try await server.client.post("/products/\(order.productId)/buy-now", token: other.token).status == 201)
            #expect(await sweeper.expire() == 0, "an expired bid expires once")
        }
    }

    @Test(
        "a bid the seller never accepts expires after 7 days; accepting it then is refused", arguments: TestEngines.all)
    func newBidExpires(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let buyer = try await server.signup()
            let product = try await server.client.post("/products", MarketplaceTests.product, token: seller.token)
                .decode(ProductResponse.self)
            let bid = try await server.client.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 8_000), token: buyer.token
            ).decode(BidResponse.self)
            server.clock.advance(seconds: 7 * 86_400 - 60)
            #expect(await server.services.pendingOrderSweeper.expire() == 0)
            server.clock.advance(seconds: 120)
            #expect(await server.services.pendingOrderSweeper.expire() == 1)
            let accept = try await server.client.post("/bids/\(bid.id)/accept", token: seller.token)
            #expect(accept.status == 409 && accept.errorCode == "invalid_state")
        }
    }

    @Test(
        "an accepted bid whose payment is under way does not expire until that attempt ends", arguments: TestEngines.all
    )
    func pendingPaymentHoldsTheBid(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (buyer, order, _, page) = try await PaymentWebhookTests.pendingIdeal(server)
            server.clock.advance(seconds: 3_600)
            #expect(
                await server.services.pendingOrderSweeper.expire() == 0, "the payer may still be on the bank's page")
            try await SimulatedPaymentProviderTests.withBrowser(server) { browser in
                let failed = try await browser.send(.POST, page + "/fail")
                #expect(failed.status == 303)
            }
            #expect(
                try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).decode(
                    OrderPaymentResponse.self
                ).orderStatus == .new)
            #expect(await server.services.pendingOrderSweeper.expire() == 1)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .expired)
            #expect(try await Self.bookings(server, order: order.id) == 0)
        }
    }
}
