import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import CountersignCore
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The marketplace payment screen through the SDK's `PaymentScreenModel`, against a real
/// `countersign serve` process and its simulated payment provider, on each engine.
@Suite("SDK checkout against the server process", .serialized)
struct SDKCheckoutTests {
    /// The payer on the simulator's hosted page: presses "Authorize payment", or walks away.
    struct HostedPage: RedirectHandler {
        let server: APIClient
        let authorize: Bool

        func open(_ url: URL) async -> RedirectOutcome {
            guard authorize else { return .abandoned }
            // The page's form posts to its own path; the test reaches the server on its loopback address.
            let answer = try? await server.post(url.path + "/authorize")
            #expect(answer?.status == 200, "authorize on \(url): \(answer?.status ?? 0) \(answer?.text ?? "no answer")")
            return .returned
        }
    }

    static let timing = PaymentScreenModel.Timing(debounce: .zero, pollInterval: .milliseconds(50))

    static func product(_ title: String) -> CreateProductRequest {
        CreateProductRequest(
            title: title, askingPrice: 10_000, shipFromCountry: "NL", pickup: true, shippingMethods: ["postnl_standard"]
        )
    }

    /// The total shown, once the server's totals are.
    static func total(_ totals: Checkout.Totals?) -> Int64? {
        if case .ready(let ready)? = totals { ready.total } else { nil }
    }

    /// A screen for a fresh buy-now of a new product, loaded; returns it with the bid.
    static func screen(seller: CountersignAPIClient, buyer: CountersignAPIClient, redirects: HostedPage, title: String)
        async throws -> (PaymentScreenModel, BidResponse)
    {
        let product = try await seller.createProduct(Self.product(title))
        let bid = try await buyer.buyNow(productId: product.id)
        let model = PaymentScreenModel(client: buyer, redirects: redirects, timing: timing)
        let state = await model.load(bidId: bid.id, productId: product.id)
        try #require(state.checkout != nil, "\(title): \(state)")
        return (model, bid)
    }

    @Test(
        "card 4242 pays, iDEAL pays through the hosted page, an abandoned Bancontact buy-now frees the product",
        arguments: TestEngines.all)
    func checkout(engine: DatabaseEngine) async throws {
        try await ServeProcess.with(engine) { server, _ in
            let transport = AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http)
            let seller = CountersignAPIClient(transport: transport)
            let buyer = CountersignAPIClient(transport: transport)
            try await EnrolledUser.signup(seller, phone: TestPhones.next(), name: "Sam", pin: "3816")
            try await EnrolledUser.signup(buyer, phone: TestPhones.next(), name: "Ada", pin: "5092")
            _ = try await buyer.addAddress(
                AddressBody(name: "Ada", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL"))
            _ = try await buyer.addCard(
                AddCardRequest(
                    number: "4242 4242 4242 4242", expMonth: 12, expYear: SimulatedPaymentProviderTests.expYear))
            let (authorizing, walkingAway) = (
                HostedPage(server: server.client, authorize: true), HostedPage(server: server.client, authorize: false)
            )

            // 1. Card, shipped within NL: the totals and the order are the server's; no redirect.
            let (card, cardBid) = try await Self.screen(
                seller: seller, buyer: buyer, redirects: walkingAway, title: "Oak chair")
            #expect(await card.chooseDelivery("postnl_standard"))
            #expect(await card.choosePaymentMethod(.card))
            // (10,000 + 695) × 2.9% = 310.155 → 310.
            #expect(Self.total(await card.settledTotals()) == 10_000 + 695 + 310)
            guard case .confirmed(let cardOrder) = await card.pay() else {
                Issue.record("card: \(card.screen.value)")
                return
            }
            #expect(cardOrder.status == .paid && cardOrder.totals.total == 10_000 + 695 + 310)
            #expect(try await buyer.bid(id: cardBid.id).status == .completed)

            // 2. iDEAL: to the simulator's page and back, then the poll finds it paid.
            let (ideal, _) = try await Self.screen(seller: seller, buyer: buyer, redirects: authorizing, title: "Lamp")
            #expect(await ideal.choosePaymentMethod(.ideal))
            #expect(Self.total(await ideal.settledTotals()) == 10_000 + 199)
            guard case .confirmed(let idealOrder) = await ideal.pay() else {
                Issue.record("iDEAL: \(ideal.screen.value)")
                return
            }
            #expect(idealOrder.status == .paid && idealOrder.paymentMethod == .ideal)

            // 3. Bancontact, and the payer walks away: back on the screen; giving up withdraws the
            //    buy-now, cancelling the waiting payment, and someone else can buy the product.
            let (bancontact, tableBid) = try await Self.screen(
                seller: seller, buyer: buyer, redirects: walkingAway, title: "Table")
            #expect(await bancontact.choosePaymentMethod(.bancontact))
            await bancontact.settledTotals()
            #expect(await bancontact.pay().checkout?.notice == .paymentAbandoned)
            guard case .withdrawn(let withdrawn) = await bancontact.abandon() else {
                Issue.record("abandon: \(bancontact.screen.value)")
                return
            }
            #expect(withdrawn.status == .canceled)
            #expect(try await buyer.order(bidId: tableBid.id)?.status == .canceled)
            #expect(try await buyer.product(id: tableBid.productId).available)
            let rival = CountersignAPIClient(transport: transport)
            try await EnrolledUser.signup(rival, phone: TestPhones.next(), name: "Bo", pin: "9753")
            #expect(try await rival.buyNow(productId: tableBid.productId).status == .accepted)
        }
    }
}
