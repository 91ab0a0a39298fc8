import CountersignAPI
import CountersignClient
import CountersignCore

/// The demo's marketplace payments: Bola sells, Ada buys through the payment screen, and
/// each ending is checked against the server — the order, the product, and the seller's money.
enum DemoCheckouts {
    static func run(server: EmbeddedServer, buyer: DemoUser, seller: DemoUser) async throws -> [DemoCheck] {
        _ = try await buyer.api.addAddress(
            AddressBody(name: buyer.name, line1: "Damrak 1", city: "Amsterdam", postalCode: "1012 LG", country: "NL"))
        return [
            try await checkout(
                "(f) checkout: card, 3-D Secure", server: server, buyer: buyer, seller: seller, product: "Oak chair",
                price: 10_000,
                answers: CheckoutAnswers(
                    delivery: "postnl_standard", method: .card, cardNumber: "4000 0027 6000 3184", pay: true),
                redirect: .authorize
            ) { ending, _ in ending.paid },
            try await checkout(
                "(g) checkout: iDEAL, pickup", server: server, buyer: buyer, seller: seller, product: "Reading lamp",
                price: 2_500,
                answers: CheckoutAnswers(delivery: "pickup", method: .ideal, pay: true), redirect: .authorize
            ) { ending, _ in ending.paid },
            try await checkout(
                "(h) checkout: buy-now abandoned, withdrawn", server: server, buyer: buyer, seller: seller,
                product: "Bicycle", price: 35_000,
                answers: CheckoutAnswers(delivery: "pickup", method: .bancontact, pay: true, withdrawIfAbandoned: true),
                redirect: .abandon
            ) { ending, product in
                if case .withdrawn = ending { product.available } else { false }
            },
        ]
    }

    /// `seller` lists `product`; `buyer` buys it now through the terminal's payment screen. Passes
    /// when `expected` holds and the seller's escrow grew by exactly what a paid order owes them.
    private static func checkout(
        _ scenario: String, server: EmbeddedServer, buyer: DemoUser, seller: DemoUser, product title: String,
        price: Int64,
        answers: CheckoutAnswers, redirect: TerminalRedirectHandler.Mode,
        expected: (CheckoutEnding, ProductResponse) -> Bool
    ) async throws -> DemoCheck {
        print("\n═══ \(scenario) ═══")
        let product = try await seller.api.createProduct(
            CreateProductRequest(
                title: title, askingPrice: price, shipFromCountry: "NL", pickup: true,
                shippingMethods: ["postnl_standard"])
        )
        print(
            "  \(seller.name) lists \(title) for \(Formatting.money(price, product.currency)); \(buyer.name) presses Buy now"
        )
        let sellerId = try await seller.api.profile().userId
        let before = try await server.services.marketplace.proceeds(sellerId: sellerId)
        let bid = try await buyer.api.buyNow(productId: product.id)
        let ending = await TerminalCheckout.run(
            api: buyer.api, bidId: bid.id, productId: product.id, answers: answers,
            redirects: TerminalRedirectHandler(mode: redirect),
            timing: .init(pollInterval: .milliseconds(200))
        )
        let after = try await server.services.marketplace.proceeds(sellerId: sellerId)
        let now = try await buyer.api.product(id: product.id)
        var owed: Int64 = 0
        if case .paid(let order) = ending { owed = order.totals.subtotal + order.totals.shipping }
        let held = after.held - before.held
        let passed = expected(ending, now) && held == owed
        let detail =
            "\(summary(ending)); seller's escrow +\(Formatting.money(held, after.currency)); product \(now.available ? "available" : "held")"
        return DemoCheck(scenario: scenario, passed: passed, detail: detail)
    }

    private static func summary(_ ending: CheckoutEnding) -> String {
        switch ending {
        case .paid(let order): "\(order.status.rawValue) \(Formatting.money(order.totals.total, order.totals.currency))"
        case .failed(let why): "failed: \(why)"
        case .pending: "still pending"
        case .withdrawn(let bid): "bid \(bid.status.rawValue)"
        case .unavailable(let why): "unavailable: \(why)"
        }
    }
}
