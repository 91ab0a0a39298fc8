import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Who sees whom on an order: once it is paid, the seller sees where to send it and who receives
/// it, and for a pickup each side sees the other's phone number; before that, and for anyone
/// else, nothing.
@Suite("Order parties")
struct OrderPartiesTests {
    /// A seller "Sam", a buyer "Bea" with an address, and Bea's order for Sam's product with `delivery`.
    static func order(_ server: LiveServer, delivery: String) async throws -> (
        seller: TestUser, buyer: TestUser, order: OrderResponse
    ) {
        let seller = try await server.signup(name: "Sam")
        let buyer = try await server.signup(name: "Bea")
        let api = server.client
        let product = try await api.post("/products", MarketplaceTests.product, token: seller.token).decode(
            ProductResponse.self)
        let bid = try await api.post("/products/\(product.id)/buy-now", token: buyer.token).decode(BidResponse.self)
        let address = try await api.post(
            "/user/addresses",
            AddressBody(name: "Bea de Vries", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL"),
            token: buyer.token
        ).decode(AddressBody.self)
        let order = try await api.post(
            "/orders",
            CheckoutTotalsRequest(
                bidId: bid.id, delivery: delivery, addressId: delivery == "pickup" ? nil : address.id,
                paymentMethod: .card),
            token: buyer.token
        ).decode(OrderResponse.self)
        return (seller, buyer, order)
    }

    static func pay(_ server: LiveServer, _ buyer: TestUser, _ order: OrderResponse) async throws {
        let card = try await OrderPaymentTests.card(server, buyer, "4242 4242 4242 4242")
        let paid = try await server.client.post(
            "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
        ).decode(OrderPaymentResponse.self)
        try #require(paid.orderStatus == .paid)
    }

    @Test(
        "a paid shipping order shows the seller the buyer's name and address; not before, not to others",
        arguments: TestEngines.all)
    func shippingAddress(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let (seller, buyer, order) = try await Self.order(server, delivery: "postnl_standard")
            let unpaid = try await api.get("/orders/\(order.id)", token: seller.token).decode(OrderResponse.self)
            #expect(unpaid.role == .seller && unpaid.shippingAddress == nil && unpaid.buyer == nil)

            try await Self.pay(server, buyer, order)
            let sellers = try await api.get("/orders/\(order.id)", token: seller.token).decode(OrderResponse.self)
            #expect(sellers.role == .seller)
            #expect(sellers.buyer == OrderParty(name: "Bea") && sellers.seller == OrderParty(name: "Sam"))
            #expect(
                sellers.shippingAddress?.name == "Bea de Vries" && sellers.shippingAddress?.line1 == "Dam 1"
                    && sellers.shippingAddress?.city == "Amsterdam" && sellers.shippingAddress?.postalCode == "1012"
                    && sellers.shippingAddress?.country == "NL")
            #expect(sellers.createdAt != nil && sellers.updatedAt != nil)
            let listed = try await api.get("/user/orders", token: seller.token).decode(OrderList.self).orders
            #expect(listed.first { $0.id == order.id }?.shippingAddress == sellers.shippingAddress)

            let buyers = try await api.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self)
            #expect(buyers.role == .buyer && buyers.seller?.name == "Sam" && buyers.shippingAddress?.line1 == "Dam 1")

            let stranger = try await server.signup(name: "Eve")
            let refused = try await api.get("/orders/\(order.id)", token: stranger.token)
            #expect(refused.status == 404 && refused.errorCode == "order_not_found" && !refused.text.contains("Dam 1"))
        }
    }

    @Test(
        "a paid pickup order shows each side the other's name and phone number; an unpaid one neither",
        arguments: TestEngines.all)
    func pickupContact(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            let (seller, buyer, order) = try await Self.order(server, delivery: "pickup")
            let unpaid = try await api.get("/orders/\(order.id)", token: buyer.token)
            #expect(unpaid.status == 200 && !unpaid.text.contains(seller.phone) && !unpaid.text.contains("Sam"))

            try await Self.pay(server, buyer, order)
            let sellers = try await api.get("/orders/\(order.id)", token: seller.token).decode(OrderResponse.self)
            // The number as the server keeps it (international form): the same subscriber digits.
            let digits = { (phone: String?) in String((phone ?? "").filter(\.isNumber).suffix(9)) }
            #expect(sellers.buyer?.name == "Bea" && digits(sellers.buyer?.phone) == digits(buyer.phone))
            #expect(sellers.shippingAddress == nil)
            let buyers = try await api.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self)
            #expect(buyers.seller?.name == "Sam" && digits(buyers.seller?.phone) == digits(seller.phone))
            #expect(buyers.role == .buyer)
        }
    }
}
