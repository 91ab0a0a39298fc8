import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Orders: one per accepted bid, created or reused, with the server's totals.
@Suite("Orders")
struct OrderTests {
    /// A seller's product, a buyer with an NL address, and the buyer's accepted buy-now bid.
    static func acceptedBid(_ server: LiveServer) async throws -> (
        seller: TestUser, buyer: TestUser, bid: BidResponse, address: String
    ) {
        let seller = try await server.signup()
        let buyer = try await server.signup()
        let product = try await server.client.post("/products", MarketplaceTests.product, token: seller.token).decode(
            ProductResponse.self)
        let bid = try await server.client.post("/products/\(product.id)/buy-now", token: buyer.token).decode(
            BidResponse.self)
        let address = try await server.client.post(
            "/user/addresses",
            AddressBody(name: "B", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL"),
            token: buyer.token
        ).decode(AddressBody.self)
        return (seller, buyer, bid, try #require(address.id))
    }

    @Test(
        "the first POST creates the order; later ones reuse it with the new choices; never a second order",
        arguments: TestEngines.all)
    func createOrReuse(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, bid, address) = try await Self.acceptedBid(server)
            let first = try await server.client.post(
                "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal),
                token: buyer.token)
            #expect(first.status == 201)
            let order = try first.decode(OrderResponse.self)
            #expect(order.status == .new && order.totals.total == 10_199)
            let changed = try await server.client.post(
                "/orders",
                CheckoutTotalsRequest(
                    bidId: bid.id, delivery: "postnl_standard", addressId: address, paymentMethod: .card),
                token: buyer.token)
            #expect(changed.status == 200)
            let updated = try changed.decode(OrderResponse.self)
            #expect(updated.id == order.id)
            // (10,000 + 695) × 2.9% = 310.155 → 310.
            #expect(
                updated.totals.total == 10_000 + 695 + 310 && updated.paymentMethod == .card
                    && updated.addressId == address)
            // The seller sees the same order, as its seller.
            var sellers = updated
            sellers.role = .seller
            #expect(
                try await server.client.get("/orders/\(order.id)", token: seller.token).decode(OrderResponse.self)
                    == sellers)
            let stranger = try await server.signup()
            #expect(try await server.client.get("/orders/\(order.id)", token: stranger.token).status == 404)
            #expect(
                try await server.client.post(
                    "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal),
                    token: stranger.token
                ).status == 404)
            #expect(try await LedgerAudit.count("orders", server.database) == 1)

            // Eight concurrent first POSTs for another bid: one order.
            let (_, buyer2, bid2, _) = try await Self.acceptedBid(server)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.client.post(
                            "/orders", CheckoutTotalsRequest(bidId: bid2.id, delivery: "pickup", paymentMethod: .card),
                            token: buyer2.token
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1 && statuses.filter { $0 == 200 }.count == 7, "\(statuses)")
            #expect(try await LedgerAudit.count("orders", server.database) == 2)
        }
    }

    @Test(
        "an order needs an accepted bid; withdrawing the bid cancels its order and frees the product",
        arguments: TestEngines.all)
    func withdrawCancels(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (_, buyer, bid, _) = try await Self.acceptedBid(server)
            let order = try await server.client.post(
                "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal),
                token: buyer.token
            ).decode(OrderResponse.self)
            #expect(try await server.client.post("/bids/\(bid.id)/withdraw", token: buyer.token).status == 200)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .canceled)
            let again = try await server.client.post(
                "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal),
                token: buyer.token)
            #expect(again.status == 409 && again.errorCode == "bid_not_accepted")
            #expect(
                try await server.client.get("/products/\(bid.productId)", token: buyer.token).decode(
                    ProductResponse.self
                ).available)
        }
    }

    @Test(
        "GET /bids/{id}/order: none yet, then the bid's order as it moves; only its buyer sees it",
        arguments: TestEngines.all)
    func orderForBid(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, bid, _) = try await Self.acceptedBid(server)
            let none = try await server.client.get("/bids/\(bid.id)/order", token: buyer.token)
            #expect(none.status == 404 && none.errorCode == "order_not_found")
            let order = try await server.client.post(
                "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal),
                token: buyer.token
            ).decode(OrderResponse.self)
            #expect(
                try await server.client.get("/bids/\(bid.id)/order", token: buyer.token).decode(OrderResponse.self)
                    == order)
            for other in [seller, try await server.signup()] {
                let hidden = try await server.client.get("/bids/\(bid.id)/order", token: other.token)
                #expect(hidden.status == 404 && hidden.errorCode == "bid_not_found")
            }
            let unknown = try await server.client.get("/bids/bid_unknown/order", token: buyer.token)
            #expect(unknown.status == 404 && unknown.errorCode == "bid_not_found")
            // Withdrawn: the bid's last order is still the one returned, now CANCELED.
            #expect(try await server.client.post("/bids/\(bid.id)/withdraw", token: buyer.token).status == 200)
            let closed = try await server.client.get("/bids/\(bid.id)/order", token: buyer.token).decode(
                OrderResponse.self)
            #expect(closed.id == order.id && closed.status == .canceled)
        }
    }
}
