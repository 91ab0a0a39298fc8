import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Every refusal the marketplace gives is a 4xx with its stable code, and writes nothing: the rows
/// of every marketplace and money table are the same before and after.
@Suite("Marketplace refusals")
struct MarketplaceRefusalTests {
    static let tables = [
        "products", "bids", "orders", "addresses", "sim_payment_intents", "sim_cards", "ledger_transactions",
        "postings", "accounts",
    ]

    /// Row counts, plus every bid's and order's status: a refused request may not move either.
    static func snapshot(_ server: LiveServer) async throws -> [String] {
        var rows: [String] = []
        for table in tables { rows.append("\(table)=\(try await LedgerAudit.count(table, server.database))") }
        rows += try await server.database.read { sql in
            try await sql.query("SELECT id, status FROM bids ORDER BY id", []).map {
                "bid \(try $0.string("id"))=\(try $0.string("status"))"
            }
                + (try await sql.query("SELECT id, status, payment_attempt FROM orders ORDER BY id", [])).map {
                    "order \(try $0.string("id"))=\(try $0.string("status"))/\(try $0.int("payment_attempt"))"
                }
        }
        return rows
    }

    @Test(
        "own product, amounts out of range, someone else's bid, unaccepted and withdrawn bids, a paid order paid again",
        arguments: TestEngines.all)
    func refusalsWriteNothing(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let api = server.client
            // A paid order, an offer not accepted, a withdrawn buy-now: the states the refusals need.
            let (buyer, paidOrder) = try await OrderPaymentTests.order(server, method: .card)
            let card = try await OrderPaymentTests.card(server, buyer, "4242 4242 4242 4242")
            #expect(
                try await api.post(
                    "/orders/\(paidOrder.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token
                ).decode(OrderPaymentResponse.self).orderStatus == .paid)
            let seller = try await server.signup()
            let stranger = try await server.signup()
            let product = try await api.post("/products", MarketplaceTests.product, token: seller.token).decode(
                ProductResponse.self)
            let offer = try await api.post(
                "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: buyer.token
            ).decode(BidResponse.self)
            let other = try await api.post("/products", MarketplaceTests.product, token: seller.token).decode(
                ProductResponse.self)
            let withdrawn = try await api.post("/products/\(other.id)/buy-now", token: buyer.token).decode(
                BidResponse.self)
            #expect(try await api.post("/bids/\(withdrawn.id)/withdraw", token: buyer.token).status == 200)

            let before = try await Self.snapshot(server)
            let refusals: [(String, APIResponse, Int, String)] = [
                (
                    "bid on own product",
                    try await api.post(
                        "/products/\(product.id)/bids", CreateBidRequest(amount: 9_000), token: seller.token), 422,
                    "own_product"
                ),
                (
                    "buy own product", try await api.post("/products/\(product.id)/buy-now", token: seller.token), 422,
                    "own_product"
                ),
                (
                    "bid of 0",
                    try await api.post(
                        "/products/\(product.id)/bids", CreateBidRequest(amount: 0), token: stranger.token), 400,
                    "invalid_amount"
                ),
                (
                    "bid of -1",
                    try await api.post(
                        "/products/\(product.id)/bids", CreateBidRequest(amount: -1), token: stranger.token), 400,
                    "invalid_amount"
                ),
                (
                    "bid over the maximum",
                    try await api.post(
                        "/products/\(product.id)/bids", CreateBidRequest(amount: 1_000_000_001), token: stranger.token),
                    400, "invalid_amount"
                ),
                (
                    "price of 0",
                    try await api.post(
                        "/products",
                        CreateProductRequest(
                            title: "x", askingPrice: 0, shipFromCountry: "NL", pickup: true, shippingMethods: []),
                        token: seller.token), 400, "invalid_amount"
                ),
                (
                    "totals for someone else's bid",
                    try await api.post(
                        "/checkout/totals",
                        CheckoutTotalsRequest(bidId: offer.id, delivery: "pickup", paymentMethod: .ideal),
                        token: stranger.token), 404, "bid_not_found"
                ),
                (
                    "order for an unaccepted bid",
                    try await api.post(
                        "/orders", CheckoutTotalsRequest(bidId: offer.id, delivery: "pickup", paymentMethod: .ideal),
                        token: buyer.token), 409, "bid_not_accepted"
                ),
                (
                    "order for a withdrawn bid",
                    try await api.post(
                        "/orders",
                        CheckoutTotalsRequest(bidId: withdrawn.id, delivery: "pickup", paymentMethod: .ideal),
                        token: buyer.token), 409, "bid_not_accepted"
                ),
                (
                    "a paid order paid again",
                    try await api.post(
                        "/orders/\(paidOrder.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token), 409,
                    "order_paid"
                ),
                (
                    "someone else's order paid",
                    try await api.post(
                        "/orders/\(paidOrder.id)/pay", PayOrderRequest(paymentMethodId: card), token: stranger.token),
                    404, "order_not_found"
                ),
                (
                    "accept someone else's bid", try await api.post("/bids/\(offer.id)/accept", token: stranger.token),
                    404, "bid_not_found"
                ),
                (
                    "withdraw a withdrawn bid",
                    try await api.post("/bids/\(withdrawn.id)/withdraw", token: buyer.token), 409, "invalid_state"
                ),
                (
                    "complete an unshipped order",
                    try await api.post("/orders/\(paidOrder.id)/complete", token: buyer.token), 409, "invalid_state"
                ),
                (
                    "a card that is not a card",
                    try await api.post(
                        "/payment-methods/cards", AddCardRequest(number: "4827", expMonth: 12, expYear: 2030),
                        token: buyer.token), 422, "invalid_card_number"
                ),
            ]
            for (what, response, status, code) in refusals {
                #expect(
                    response.status == status && response.errorCode == code,
                    "\(what): \(response.status) \(response.text)")
            }
            #expect(try await Self.snapshot(server) == before, "a refusal wrote something")
        }
    }
}
