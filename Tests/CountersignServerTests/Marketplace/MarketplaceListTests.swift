import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Testing

/// The lists the marketplace screens show: the shop window, a seller's products and the bids to
/// accept, a buyer's bids, and the orders each side has.
@Suite("Marketplace lists")
struct MarketplaceListTests {
    @Test(
        "products, bids and orders are listed newest first, each only to whom it concerns", arguments: TestEngines.all)
    func lists(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let seller = try await server.signup()
            let buyer = try await server.signup()
            let stranger = try await server.signup()
            let lamp = try await api.post("/products", MarketplaceTests.product, token: seller.token).decode(
                ProductResponse.self)
            server.clock.advance(seconds: 1)
            let chair = try await api.post("/products", MarketplaceTests.product, token: seller.token).decode(
                ProductResponse.self)

            let offer = try await api.post(
                "/products/\(lamp.id)/bids", CreateBidRequest(amount: 9_000), token: buyer.token
            ).decode(BidResponse.self)
            server.clock.advance(seconds: 1)
            let bought = try await api.post("/products/\(chair.id)/buy-now", token: buyer.token).decode(
                BidResponse.self)
            let order = try await api.post(
                "/orders", CheckoutTotalsRequest(bidId: bought.id, delivery: "pickup", paymentMethod: .ideal),
                token: buyer.token)
            #expect(order.status == 201, "\(order.text)")
            let orderId = try order.decode(OrderResponse.self).id

            let window = try await api.get("/products", token: stranger.token).decode(ProductList.self)
            let listed = window.products.filter { [lamp.id, chair.id].contains($0.id) }
            #expect(listed.map(\.id) == [chair.id, lamp.id])
            #expect(listed.map(\.available) == [false, true], "the bought chair is held")
            #expect(
                try await api.get("/products?seller=me", token: seller.token).decode(ProductList.self).products.map(
                    \.id) == [chair.id, lamp.id])
            #expect(
                try await api.get("/products?seller=me", token: buyer.token).decode(ProductList.self).products.isEmpty)
            #expect(
                try await api.get("/products?seller=me&limit=1", token: seller.token).decode(ProductList.self).products
                    .map(\.id) == [chair.id])

            #expect(
                try await api.get("/products/\(lamp.id)/bids", token: seller.token).decode(BidList.self).bids.map(\.id)
                    == [offer.id])
            let notTheirs = try await api.get("/products/\(lamp.id)/bids", token: buyer.token)
            #expect(notTheirs.status == 404 && notTheirs.errorCode == "product_not_found")
            #expect(
                try await api.get("/user/bids", token: buyer.token).decode(BidList.self).bids.map(\.id) == [
                    bought.id, offer.id,
                ])
            #expect(try await api.get("/user/bids", token: seller.token).decode(BidList.self).bids.isEmpty)

            #expect(
                try await api.get("/user/orders", token: buyer.token).decode(OrderList.self).orders.map(\.id) == [
                    orderId
                ])
            #expect(
                try await api.get("/user/orders", token: seller.token).decode(OrderList.self).orders.map(\.id) == [
                    orderId
                ])
            #expect(try await api.get("/user/orders", token: stranger.token).decode(OrderList.self).orders.isEmpty)
        }
    }

    @Test("a limit outside 1…100, or a seller other than me, is 400 with a code")
    func badQueries() async throws {
        try await LiveServer.run(.sqlite) { server in
            let user = try await server.signup()
            for (path, code) in [
                ("/products?limit=0", "invalid_limit"), ("/products?limit=101", "invalid_limit"),
                ("/user/bids?limit=-1", "invalid_limit"),
                ("/user/orders?limit=99999999999999999999", "invalid_limit"),
                ("/products?seller=usr_other", "invalid_seller"),
            ] {
                let response = try await server.client.get(path, token: user.token)
                #expect(response.status == 400 && response.errorCode == code, "\(path): \(response.text)")
            }
        }
    }
}
