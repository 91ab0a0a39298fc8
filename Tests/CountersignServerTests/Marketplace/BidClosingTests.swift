import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// A sold product takes no more bids and ends the open ones; a seller can decline a bid; every
/// bidder whose bid ended sees why.
@Suite("Bid closing")
struct BidClosingTests {
    static func listed(_ server: LiveServer, by seller: TestUser) async throws -> ProductResponse {
        try await server.client.post("/products", MarketplaceTests.product, token: seller.token).decode(
            ProductResponse.self)
    }

    static func bid(_ server: LiveServer, on product: ProductResponse, _ amount: Int64, by buyer: TestUser)
        async throws -> BidResponse
    {
        try await server.client.post(
            "/products/\(product.id)/bids", CreateBidRequest(amount: amount), token: buyer.token
        ).decode(BidResponse.self)
    }

    @Test("once sold: open bids end as sold, new bids are refused with product_sold", arguments: TestEngines.all)
    func soldProduct(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let seller = try await server.signup()
            let (early, winner, late) = (
                try await server.signup(), try await server.signup(), try await server.signup()
            )
            let product = try await Self.listed(server, by: seller)
            let open = try await Self.bid(server, on: product, 8_000, by: early)
            let bought = try await api.post("/products/\(product.id)/buy-now", token: winner.token).decode(
                BidResponse.self)
            let order = try await api.post(
                "/orders", CheckoutTotalsRequest(bidId: bought.id, delivery: "pickup", paymentMethod: .card),
                token: winner.token
            ).decode(OrderResponse.self)
            try await OrderPartiesTests.pay(server, winner, order)

            let ended = try await api.get("/bids/\(open.id)", token: early.token).decode(BidResponse.self)
            #expect(ended.status == .canceled && ended.closedReason == .sold && ended.expiresAt == nil)
            let won = try await api.get("/bids/\(bought.id)", token: winner.token).decode(BidResponse.self)
            #expect(won.status == .completed && won.closedReason == nil && won.orderId == order.id)
            #expect(ended.orderId == nil, "a bid without an order names none")

            let shown = try await api.get("/products/\(product.id)", token: late.token).decode(ProductResponse.self)
            #expect(shown.sold == true && !shown.available)
            let listed = try await api.get("/products", token: late.token).decode(ProductList.self).products
            #expect(listed.first { $0.id == product.id }?.sold == true)

            let bids = try await LedgerAudit.count("bids", server.database)
            let refused = try await api.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: late.token)
            #expect(refused.status == 409 && refused.errorCode == "product_sold", "\(refused.text)")
            #expect(try await LedgerAudit.count("bids", server.database) == bids)
            let own = try await api.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: seller.token)
            #expect(own.status == 422 && own.errorCode == "own_product")
        }
    }

    @Test("bids racing the sale: each is refused as sold or ended by it; none stays open", arguments: TestEngines.all)
    func bidsRacingTheSale(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let (seller, winner) = (try await server.signup(), try await server.signup())
            var bidders: [TestUser] = []
            for _ in 0..<5 { bidders.append(try await server.signup()) }
            let product = try await Self.listed(server, by: seller)
            let bought = try await api.post("/products/\(product.id)/buy-now", token: winner.token).decode(
                BidResponse.self)
            let order = try await api.post(
                "/orders", CheckoutTotalsRequest(bidId: bought.id, delivery: "pickup", paymentMethod: .card),
                token: winner.token
            ).decode(OrderResponse.self)
            let card = try await OrderPaymentTests.card(server, winner, "4242 4242 4242 4242")
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                group.addTask {
                    let paid = try await api.post(
                        "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: winner.token)
                    return (paid.status, nil)
                }
                for index in 0..<40 {
                    let bidder = bidders[index % bidders.count]
                    group.addTask {
                        let placed = try await api.post(
                            "/products/\(product.id)/bids", CreateBidRequest(amount: Int64(5_000 + index)),
                            token: bidder.token)
                        return (placed.status, placed.errorCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == (200, nil) || $0 == (201, nil) || $0 == (409, "product_sold") })
            let open = try await LedgerAudit.count(
                "bids WHERE product_id = '\(product.id)' AND status IN ('NEW', 'ACCEPTED')", server.database)
            #expect(open == 0, "a bid placed during the sale stayed open on a sold product")
        }
    }

    @Test("the seller declines a new bid; the bidder sees it declined; nobody else can", arguments: TestEngines.all)
    func decline(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let (seller, buyer, stranger) = (
                try await server.signup(), try await server.signup(), try await server.signup()
            )
            let product = try await Self.listed(server, by: seller)
            let bid = try await Self.bid(server, on: product, 5_000, by: buyer)

            let byBuyer = try await api.post("/bids/\(bid.id)/decline", token: buyer.token)
            #expect(byBuyer.status == 403 && byBuyer.errorCode == "not_seller")
            let byStranger = try await api.post("/bids/\(bid.id)/decline", token: stranger.token)
            #expect(byStranger.status == 404 && byStranger.errorCode == "bid_not_found")

            let declined = try await api.post("/bids/\(bid.id)/decline", token: seller.token)
            #expect(declined.status == 200)
            #expect(try declined.decode(BidResponse.self).closedReason == .declined)
            let seen = try await api.get("/bids/\(bid.id)", token: buyer.token).decode(BidResponse.self)
            #expect(seen.status == .canceled && seen.closedReason == .declined)
            let again = try await api.post("/bids/\(bid.id)/decline", token: seller.token)
            #expect(again.status == 409 && again.errorCode == "invalid_state")
            let accept = try await api.post("/bids/\(bid.id)/accept", token: seller.token)
            #expect(accept.status == 409 && accept.errorCode == "invalid_state")

            // An accepted bid is the buyer's to pay: the seller cannot take it back.
            let other = try await Self.bid(server, on: product, 6_000, by: buyer)
            #expect(try await api.post("/bids/\(other.id)/accept", token: seller.token).status == 200)
            let late = try await api.post("/bids/\(other.id)/decline", token: seller.token)
            #expect(late.status == 409 && late.errorCode == "invalid_state")
        }
    }

    @Test("a withdrawn bid says withdrawn", arguments: TestEngines.all)
    func withdrawn(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let (seller, buyer) = (try await server.signup(), try await server.signup())
            let product = try await Self.listed(server, by: seller)
            let bid = try await Self.bid(server, on: product, 5_000, by: buyer)
            let withdrawn = try await api.post("/bids/\(bid.id)/withdraw", token: buyer.token).decode(BidResponse.self)
            #expect(withdrawn.status == .canceled && withdrawn.closedReason == .withdrawn)
        }
    }
}
