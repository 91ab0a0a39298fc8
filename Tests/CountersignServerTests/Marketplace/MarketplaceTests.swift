import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The marketplace's first half: profile and addresses, products, bids and buy-now, and totals
/// computed by the server. (Orders and payments come next.)
@Suite("Marketplace")
struct MarketplaceTests {
    static let product = CreateProductRequest(
        title: "Oak chair", askingPrice: 10_000, shipFromCountry: "NL", pickup: true,
        shippingMethods: ["postnl_standard"])

    @Test("profile: merchant flag and addresses; a bad address is refused and not stored", arguments: TestEngines.all)
    func profile(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup(name: "Ada")
            let blank = try await server.client.get("/user/profile", token: user.token).decode(ProfileResponse.self)
            #expect(blank.isMerchant == false && blank.addresses.isEmpty && blank.name == "Ada")
            let merchant = try await server.client.send(
                .PUT, "/user/merchant", json: MerchantRequest(isMerchant: true), token: user.token)
            #expect(try merchant.decode(ProfileResponse.self).isMerchant)
            let bad = try await server.client.post(
                "/user/addresses",
                AddressBody(name: "Ada", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "Netherlands"),
                token: user.token)
            #expect(bad.status == 400 && bad.errorCode == "invalid_country")
            let unassigned = try await server.client.post(
                "/user/addresses",
                AddressBody(name: "Ada", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "ZZ"),
                token: user.token)
            #expect(unassigned.status == 422 && unassigned.errorCode == "unknown_country")
            let added = try await server.client.post(
                "/user/addresses",
                AddressBody(name: "Ada", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "nl"),
                token: user.token)
            #expect(added.status == 201)
            #expect(try added.decode(AddressBody.self).country == "NL")
            let profile = try await server.client.get("/user/profile", token: user.token).decode(ProfileResponse.self)
            #expect(profile.addresses.count == 1 && profile.isMerchant)
        }
    }

    @Test(
        "bids: accept by the seller only, withdraw by the buyer; one bid holds a product; own product refused",
        arguments: TestEngines.all)
    func bids(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let buyer = try await server.signup()
            let rival = try await server.signup()
            let stranger = try await server.signup()
            let created = try await server.client.post("/products", Self.product, token: seller.token)
            #expect(created.status == 201)
            let product = try created.decode(ProductResponse.self)
            #expect(
                product.deliveryMethods.map(\.id) == ["pickup", "postnl_standard"] && product.available
                    && product.currency == "EUR")

            let own = try await server.client.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: seller.token)
            #expect(own.status == 422 && own.errorCode == "own_product")
            let zero = try await server.client.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 0), token: buyer.token)
            #expect(zero.status == 400 && zero.errorCode == "invalid_amount")
            let bid = try await server.client.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: buyer.token
            ).decode(BidResponse.self)
            #expect(bid.status == .new && !bid.buyNow)
            let selfAccept = try await server.client.post("/bids/\(bid.id)/accept", token: buyer.token)
            #expect(selfAccept.status == 403 && selfAccept.errorCode == "not_seller")
            #expect(try await server.client.get("/bids/\(bid.id)", token: stranger.token).status == 404)
            let accepted = try await server.client.post("/bids/\(bid.id)/accept", token: seller.token).decode(
                BidResponse.self)
            #expect(accepted.status == .accepted)
            #expect(
                try await server.client.get("/products/\(product.id)", token: rival.token).decode(ProductResponse.self)
                    .available == false)

            let blocked = try await server.client.post("/products/\(product.id)/buy-now", token: rival.token)
            #expect(blocked.status == 409 && blocked.errorCode == "product_unavailable")
            let withdrawn = try await server.client.post("/bids/\(bid.id)/withdraw", token: buyer.token).decode(
                BidResponse.self)
            #expect(withdrawn.status == .canceled)
            #expect(
                try await server.client.post("/bids/\(bid.id)/withdraw", token: buyer.token).errorCode
                    == "invalid_state")
            // The abandoned bid freed the product: it can be bought again.
            let bought = try await server.client.post("/products/\(product.id)/buy-now", token: rival.token)
            #expect(bought.status == 201)
            let buyNow = try bought.decode(BidResponse.self)
            #expect(buyNow.status == .accepted && buyNow.buyNow && buyNow.amount == 10_000)
        }
    }

    @Test("eight concurrent buy-nows on one product: exactly one holds it", arguments: TestEngines.all)
    func concurrentBuyNow(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let product = try await server.client.post("/products", Self.product, token: seller.token).decode(
                ProductResponse.self)
            var buyers: [TestUser] = []
            for _ in 0..<8 { buyers.append(try await server.signup()) }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for buyer in buyers {
                    group.addTask {
                        try await server.client.post("/products/\(product.id)/buy-now", token: buyer.token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 7, "\(statuses)")
        }
    }

    @Test("totals: pickup, routes, payment methods, and the refusals", arguments: TestEngines.all)
    func totals(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let buyer = try await server.signup()
            let other = try await server.signup()
            let product = try await server.client.post("/products", Self.product, token: seller.token).decode(
                ProductResponse.self)
            let bid = try await server.client.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: buyer.token
            ).decode(BidResponse.self)
            func totals(_ request: CheckoutTotalsRequest, _ user: TestUser) async throws -> APIResponse {
                try await server.client.post("/checkout/totals", request, token: user.token)
            }
            let notAccepted = try await totals(.init(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal), buyer)
            #expect(notAccepted.status == 409 && notAccepted.errorCode == "bid_not_accepted")
            _ = try await server.client.post("/bids/\(bid.id)/accept", token: seller.token)

            let pickup = try await totals(.init(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal), buyer)
                .decode(CheckoutTotals.self)
            #expect(
                pickup.subtotal == 9_000 && pickup.shipping == 0 && pickup.paymentFee == 199 && pickup.total == 9_199)
            // A buyer with no address can only choose pickup.
            let noAddress = try await totals(
                .init(bidId: bid.id, delivery: "postnl_standard", paymentMethod: .ideal), buyer)
            #expect(noAddress.status == 422 && noAddress.errorCode == "address_required")

            let home = try await server.client.post(
                "/user/addresses",
                AddressBody(name: "B", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL"),
                token: buyer.token
            ).decode(AddressBody.self)
            let london = try await server.client.post(
                "/user/addresses",
                AddressBody(name: "B", line1: "1 Strand", city: "London", postalCode: "WC2", country: "GB"),
                token: buyer.token
            ).decode(AddressBody.self)
            let domestic = try await totals(
                .init(bidId: bid.id, delivery: "postnl_standard", addressId: home.id, paymentMethod: .card), buyer
            ).decode(CheckoutTotals.self)
            // (9,000 + 695) × 2.9% = 281.155 → 281.
            #expect(domestic.shipping == 695 && domestic.paymentFee == 281 && domestic.total == 9_976)
            let abroad = try await totals(
                .init(bidId: bid.id, delivery: "postnl_standard", addressId: london.id, paymentMethod: .ideal), buyer
            ).decode(CheckoutTotals.self)
            #expect(abroad.shipping == 2_495 && abroad.total == 9_000 + 2_495 + 199)

            let unoffered = try await totals(
                .init(bidId: bid.id, delivery: "postnl_registered", addressId: home.id, paymentMethod: .ideal), buyer)
            #expect(unoffered.status == 422 && unoffered.errorCode == "delivery_unavailable")
            let foreignAddress = try await server.client.post(
                "/user/addresses", AddressBody(name: "O", line1: "x", city: "y", postalCode: "z", country: "NL"),
                token: other.token
            ).decode(AddressBody.self)
            let notMine = try await totals(
                .init(bidId: bid.id, delivery: "postnl_standard", addressId: foreignAddress.id, paymentMethod: .ideal),
                buyer)
            #expect(notMine.status == 404 && notMine.errorCode == "address_not_found")
            // Another user's bid: not found, whatever they choose.
            #expect(
                try await totals(.init(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal), other).status == 404)
            #expect(
                try await totals(.init(bidId: bid.id, delivery: "pickup", paymentMethod: .ideal), seller).status == 404)
            let badMethod = try await server.client.send(
                .POST, "/checkout/totals",
                raw: Array(#"{"bidId":"x","delivery":"pickup","paymentMethod":"paypal"}"#.utf8), token: buyer.token)
            #expect(badMethod.status == 400)
        }
    }

    @Test("products: bad input is 4xx and stores nothing", arguments: TestEngines.all)
    func badProducts(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let seller = try await server.signup()
            let cases: [(CreateProductRequest, Int, String)] = [
                (
                    .init(title: "", askingPrice: 100, shipFromCountry: "NL", pickup: true, shippingMethods: []), 400,
                    "invalid_title"
                ),
                (
                    .init(title: "x", askingPrice: 0, shipFromCountry: "NL", pickup: true, shippingMethods: []), 400,
                    "invalid_amount"
                ),
                (
                    .init(
                        title: "x", askingPrice: 100_000_000_000, shipFromCountry: "NL", pickup: true,
                        shippingMethods: []), 400, "invalid_amount"
                ),
                (
                    .init(title: "x", askingPrice: 100, shipFromCountry: "XYZ", pickup: true, shippingMethods: []), 400,
                    "invalid_country"
                ),
                (
                    .init(title: "x", askingPrice: 100, shipFromCountry: "ZZ", pickup: true, shippingMethods: []), 422,
                    "unknown_country"
                ),
                (
                    .init(title: "x", askingPrice: 100, shipFromCountry: "NL", pickup: true, shippingMethods: ["dhl"]),
                    422, "unknown_shipping_method"
                ),
                (
                    .init(title: "x", askingPrice: 100, shipFromCountry: "NL", pickup: false, shippingMethods: []), 422,
                    "no_delivery_method"
                ),
            ]
            for (request, status, code) in cases {
                let response = try await server.client.post("/products", request, token: seller.token)
                #expect(response.status == status && response.errorCode == code, "\(request): \(response.text)")
            }
            #expect(try await LedgerAudit.count("products", server.database) == 0)
            #expect(
                try await server.client.get("/products/prd_nothing", token: seller.token).errorCode
                    == "product_not_found")
        }
    }
}
