import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Testing

/// The buyer, product, bid, order and payment answers the payment screen tests script.
enum CheckoutFixture {
    static let buyerId = "usr_buyer", sellerId = "usr_seller", productId = "prd_1", bidId = "bid_1", orderId = "ord_1"
    static let home = AddressBody(
        id: "adr_nl", name: "Ada", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL")
    static let abroad = AddressBody(
        id: "adr_gb", name: "Ada", line1: "1 Mall", city: "London", postalCode: "SW1", country: "GB")
    static let visa = SavedCardResponse(id: "pm_visa", brand: "visa", last4: "4242", expMonth: 12, expYear: 2030)
    static let redirect = "https://pay.example/sim/pay/pi_1"
    static let returnURL = "countersign://payment-return"

    static func profile(addresses: [AddressBody] = [home, abroad], userId: String = buyerId, merchant: Bool = false)
        -> ProfileResponse
    {
        ProfileResponse(userId: userId, phone: "+31600000000", name: "Ada", isMerchant: merchant, addresses: addresses)
    }

    static let product = ProductResponse(
        id: productId, sellerId: sellerId, title: "Oak chair", askingPrice: 10_000, currency: "EUR",
        shipFromCountry: "NL",
        deliveryMethods: [.init(id: "pickup", name: "Pickup"), .init(id: "postnl_standard", name: "PostNL standard")],
        available: false
    )

    static func bid(_ status: BidStatus = .accepted, buyNow: Bool = false) -> BidResponse {
        BidResponse(
            id: bidId, productId: productId, buyerId: buyerId, amount: 10_000, currency: "EUR", status: status,
            buyNow: buyNow)
    }

    /// Totals of `total`: the item, free pickup and the rest as the payment fee.
    static func totals(_ total: Int64) -> CheckoutTotals {
        let json =
            #"{"subtotal":10000,"shipping":0,"paymentFee":\#(total - 10_000),"total":\#(total),"currency":"EUR","lines":[]}"#
        return try! JSONDecoder().decode(CheckoutTotals.self, from: Data(json.utf8))
    }

    static func order(
        _ status: OrderStatus = .new, delivery: String = "pickup", addressId: String? = nil,
        method: PaymentMethodKind = .ideal, total: Int64 = 10_199
    ) -> OrderResponse {
        OrderResponse(
            id: orderId, bidId: bidId, productId: productId, status: status, delivery: delivery, addressId: addressId,
            paymentMethod: method, totals: totals(total))
    }

    static func payment(
        _ status: OrderStatus, intent: String? = nil, redirect: String? = nil,
        error: OrderPaymentResponse.Failure? = nil
    ) -> OrderPaymentResponse {
        OrderPaymentResponse(
            orderId: orderId, orderStatus: status, paymentStatus: intent, redirectURL: redirect, error: error)
    }

    static func json(_ value: some Encodable) -> String {
        String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
    }

    /// The body of `request` decoded as `T`.
    static func body<T: Decodable>(_ request: TransportRequest, as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(try #require(request.body)))
    }
}

extension ScriptedTransport {
    /// The screen's entry: profile, product, bid, the bid's order (asked only when the bid names one), then the
    /// cards unless `cards` is nil (a screen that is not shown does not fetch them).
    func expectLoad(
        profile: ProfileResponse = CheckoutFixture.profile(), bid: BidResponse = CheckoutFixture.bid(),
        order: OrderResponse? = nil,
        cards: [SavedCardResponse]? = [CheckoutFixture.visa], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expect("GET", "/user/profile", json: CheckoutFixture.json(profile), sourceLocation: sourceLocation)
        expect(
            "GET", "/products/\(CheckoutFixture.productId)", json: CheckoutFixture.json(CheckoutFixture.product),
            sourceLocation: sourceLocation)
        // The bid names its order when it has one; only then is the order asked for.
        var bid = bid
        bid.orderId = order?.id
        expect("GET", "/bids/\(CheckoutFixture.bidId)", json: CheckoutFixture.json(bid), sourceLocation: sourceLocation)
        if let order {
            expect(
                "GET", "/bids/\(CheckoutFixture.bidId)/order", json: CheckoutFixture.json(order),
                sourceLocation: sourceLocation)
        }
        if let cards {
            expect(
                "GET", "/payment-methods/cards", json: CheckoutFixture.json(SavedCardList(cards: cards)),
                sourceLocation: sourceLocation)
        }
    }

    /// `POST /checkout/totals` answered with totals of `total`.
    func expectTotals(_ total: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
        expect(
            "POST", "/checkout/totals", json: CheckoutFixture.json(CheckoutFixture.totals(total)),
            sourceLocation: sourceLocation)
    }

    /// `POST /orders` answered with `order`.
    func expectPlaceOrder(_ order: OrderResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        expect("POST", "/orders", json: CheckoutFixture.json(order), sourceLocation: sourceLocation)
    }

    /// `POST /orders/ord_1/pay` answered with `payment`.
    func expectPay(_ payment: OrderPaymentResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        expect(
            "POST", "/orders/\(CheckoutFixture.orderId)/pay", json: CheckoutFixture.json(payment),
            sourceLocation: sourceLocation)
    }

    /// `GET /orders/ord_1/payment` answered with `payment`.
    func expectPoll(_ payment: OrderPaymentResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        expect(
            "GET", "/orders/\(CheckoutFixture.orderId)/payment", json: CheckoutFixture.json(payment),
            sourceLocation: sourceLocation)
    }
}
