import CountersignCore
import Testing

@Suite("Marketplace totals")
struct CheckoutTotalsTests {
    let rates = MarketplaceRates.standard
    let nl = Country("NL")!, gb = Country("GB")!, be = Country("be")!

    @Test("pickup ships for nothing; iDEAL is a flat 1.99")
    func pickupIdeal() throws {
        let totals = try CheckoutTotals(subtotal: 10_000, delivery: .pickup, from: nl, method: .ideal, rates: rates)
        #expect(totals.shipping == 0 && totals.paymentFee == 199 && totals.total == 10_199)
        #expect(totals.currency == "EUR")
        #expect(totals.lines.map(\.kind) == ["item", "shipping", "payment_fee"])
        #expect(totals.lines.reduce(0) { $0 + $1.amount } == totals.total)
    }

    @Test("the route matters: NL→NL costs less than NL→GB; the method too")
    func routes() throws {
        let domestic = try CheckoutTotals(
            subtotal: 10_000, delivery: .shipping(methodId: "postnl_standard", to: nl), from: nl, method: .ideal,
            rates: rates)
        let abroad = try CheckoutTotals(
            subtotal: 10_000, delivery: .shipping(methodId: "postnl_standard", to: gb), from: nl, method: .ideal,
            rates: rates)
        let registered = try CheckoutTotals(
            subtotal: 10_000, delivery: .shipping(methodId: "postnl_registered", to: nl), from: nl, method: .ideal,
            rates: rates)
        let belgium = try CheckoutTotals(
            subtotal: 10_000, delivery: .shipping(methodId: "postnl_standard", to: be), from: nl, method: .ideal,
            rates: rates)
        #expect(domestic.shipping == 695)
        #expect(abroad.shipping == 2_495)
        #expect(registered.shipping == 995)
        #expect(belgium.shipping == 1_395)
        #expect(domestic.shipping < abroad.shipping && domestic.shipping < registered.shipping)
    }

    @Test("card: 2.9% of subtotal plus shipping, rounded half-up")
    func cardFee() throws {
        // (10,000 + 695) × 2.9% = 310.155 → 310.
        let totals = try CheckoutTotals(
            subtotal: 10_000, delivery: .shipping(methodId: "postnl_standard", to: nl), from: nl, method: .card,
            rates: rates)
        #expect(totals.paymentFee == 310 && totals.total == 11_005)
        // 50 × 2.9% = 1.45 → 1; 5,000 × 2.9% = 145 exactly; 1,500 × 2.9% = 43.5 → 44 (half-up).
        #expect(
            try CheckoutTotals(subtotal: 50, delivery: .pickup, from: nl, method: .card, rates: rates).paymentFee == 1)
        #expect(
            try CheckoutTotals(subtotal: 5_000, delivery: .pickup, from: nl, method: .card, rates: rates).paymentFee
                == 145)
        #expect(
            try CheckoutTotals(subtotal: 1_500, delivery: .pickup, from: nl, method: .card, rates: rates).paymentFee
                == 44)
    }

    @Test("refusals: unknown method, no route, amounts out of range")
    func refusals() {
        #expect(throws: CheckoutTotals.Problem.unknownShippingMethod("dhl")) {
            try CheckoutTotals(
                subtotal: 1_000, delivery: .shipping(methodId: "dhl", to: self.nl), from: self.nl, method: .card,
                rates: self.rates)
        }
        let domesticOnly = MarketplaceRates(
            currency: "EUR",
            shippingMethods: [.init(id: "local", name: "Local", routes: [.init(from: "NL", to: "NL", amount: 500)])],
            paymentFees: rates.paymentFees)
        #expect(throws: CheckoutTotals.Problem.noRouteTo("GB")) {
            try CheckoutTotals(
                subtotal: 1_000, delivery: .shipping(methodId: "local", to: self.gb), from: self.nl, method: .card,
                rates: domesticOnly)
        }
        #expect(throws: CheckoutTotals.Problem.amountOutOfRange) {
            try CheckoutTotals(subtotal: 0, delivery: .pickup, from: self.nl, method: .card, rates: self.rates)
        }
        #expect(throws: CheckoutTotals.Problem.amountOutOfRange) {
            try CheckoutTotals(subtotal: Int64.max, delivery: .pickup, from: self.nl, method: .card, rates: self.rates)
        }
    }

    @Test("rates validation names the problem")
    func validation() {
        #expect(MarketplaceRates.standard.problem == nil)
        var noCard = MarketplaceRates.standard
        noCard.paymentFees["card"] = nil
        #expect(noCard.problem == "no fee for payment method card")
        var twice = MarketplaceRates.standard
        twice.shippingMethods.append(twice.shippingMethods[0])
        #expect(twice.problem == "shipping method postnl_standard is listed twice")
        var badCountry = MarketplaceRates.standard
        badCountry.shippingMethods[0].routes[0].to = "Netherlands"
        #expect(badCountry.problem != nil)
    }

    @Test("country codes: two letters ISO 3166-1 assigns, upper-cased")
    func countries() {
        #expect(Country("nl")?.code == "NL")
        #expect(Country("ng")?.code == "NG")
        // User-assigned and unassigned pairs name no country.
        for code in ["ZZ", "XX", "AA", "QM", "XK", "EU", "UK"] { #expect(Country(code) == nil, "\(code)") }
        #expect(Country("NLD") == nil)
        #expect(Country("N1") == nil)
        #expect(Country("") == nil)
    }
}

@Suite("Bid and order states")
struct MarketplaceStatusTests {
    @Test("bids: accept, withdraw, complete; nothing leaves a final status")
    func bids() {
        #expect(BidStatus.new.canMove(to: .accepted))
        #expect(BidStatus.accepted.canMove(to: .canceled))
        #expect(BidStatus.accepted.canMove(to: .completed))
        #expect(!BidStatus.new.canMove(to: .completed))
        for status in BidStatus.allCases where status.isFinal {
            #expect(BidStatus.allCases.allSatisfy { !status.canMove(to: $0) })
        }
    }

    @Test("orders: a failed attempt returns to NEW; PAID never goes back")
    func orders() {
        #expect(OrderStatus.paymentPending.canMove(to: .new))
        #expect(OrderStatus.paymentPending.canMove(to: .paid))
        #expect(!OrderStatus.paid.canMove(to: .new))
        #expect(!OrderStatus.paid.canMove(to: .paymentPending))
        #expect(!OrderStatus.canceled.canMove(to: .paid))
        #expect(OrderStatus.new.isEditable && !OrderStatus.paymentPending.isEditable)
    }
}
