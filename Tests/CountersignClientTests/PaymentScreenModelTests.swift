import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Testing

/// The marketplace payment screen against a scripted server, a scripted redirect handler and a
/// clock the test controls: every branch of entry, choices and totals, paying, polling and giving up.
@Suite("Payment screen model")
struct PaymentScreenModelTests {
    typealias State = PaymentScreenModel.State
    static let debounce = Duration.milliseconds(300), interval = Duration.seconds(2)

    /// A model over a scripted transport, with its clock and redirect handler.
    struct Harness {
        let transport = ScriptedTransport()
        let sleeper: TestSleeper
        let redirects: ScriptedRedirectHandler
        let model: PaymentScreenModel

        init(_ mode: TestSleeper.Mode = .immediate, redirects: ScriptedRedirectHandler = ScriptedRedirectHandler()) {
            let sleeper = TestSleeper(mode)
            self.sleeper = sleeper
            self.redirects = redirects
            model = PaymentScreenModel(
                client: Fixture.client(transport), redirects: redirects, returnURL: CheckoutFixture.returnURL,
                timing: .init(
                    debounce: PaymentScreenModelTests.debounce, pollInterval: PaymentScreenModelTests.interval,
                    pollRetries: 3, sleep: { try await sleeper.sleep($0) })
            )
        }

        /// Enters the screen and returns what it shows, which must be the screen itself.
        func ready(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Checkout {
            let state = await model.load(bidId: CheckoutFixture.bidId, productId: CheckoutFixture.productId)
            return try #require(state.readyCheckout, "load ended in \(state)", sourceLocation: sourceLocation)
        }

        /// The requests sent to `method path`.
        func sent(_ method: String, _ path: String) -> [TransportRequest] {
            transport.requests.filter { $0.method == method && $0.path == path }
        }

        /// The totals requests sent so far, decoded.
        func sentTotals() throws -> [CheckoutTotalsRequest] {
            try sent("POST", "/checkout/totals").map { try CheckoutFixture.body($0, as: CheckoutTotalsRequest.self) }
        }

        /// Ends the one debounce wait left (a held clock) and returns the totals once they answered.
        func releaseDebounce(sourceLocation: SourceLocation = #_sourceLocation) async -> Checkout.Totals? {
            #expect(await eventually { sleeper.waiting == 1 }, "one debounce wait", sourceLocation: sourceLocation)
            sleeper.release()
            return await model.settledTotals()
        }

        /// The choices on screen now.
        var choices: Checkout.Choices? { model.screen.value.checkout?.choices }
    }

    /// A screen entered for the bid with no order yet: pickup, the first address and card, no payment method.
    static func loaded(_ mode: TestSleeper.Mode = .immediate) async throws -> Harness {
        let harness = Harness(mode)
        harness.transport.expectLoad()
        _ = try await harness.ready()
        return harness
    }

    /// A screen resumed from a `NEW` iDEAL pickup order: totals shown, Pay possible at once.
    static func resumed(_ harness: Harness, method: PaymentMethodKind = .ideal) async throws -> Checkout {
        harness.transport.expectLoad(order: CheckoutFixture.order(method: method))
        let checkout = try await harness.ready()
        try #require(checkout.canPay)
        return checkout
    }

    // MARK: Entry

    @Test(
        "no address: pickup chosen, shipping disabled; no saved card: card disabled; totals wait for a payment method")
    func noAddressNoCard() async throws {
        let harness = Harness()
        harness.transport.expectLoad(profile: CheckoutFixture.profile(addresses: []), cards: [])
        let checkout = try await harness.ready()
        // A bid without an order is not asked for one: the first visit makes no 404.
        #expect(
            harness.transport.requests.map(\.path) == [
                "/user/profile", "/products/prd_1", "/bids/bid_1", "/payment-methods/cards",
            ])
        #expect(checkout.deliveryOptions.map(\.disabled) == [nil, .noAddress])
        #expect(checkout.paymentOptions.map(\.disabled) == [.noSavedCard, nil, nil, nil])
        #expect(checkout.choices == Checkout.Choices(delivery: "pickup"))
        #expect(checkout.totals == .incomplete && !checkout.canPay && checkout.order == nil)
        #expect(await harness.model.chooseDelivery("postnl_standard") == false)
        #expect(await harness.model.choosePaymentMethod(.card) == false)
        #expect(await harness.model.pay() == .ready(checkout), "Pay without a payment method does nothing")

        harness.transport.expectTotals(10_199)
        #expect(await harness.model.choosePaymentMethod(.ideal))
        #expect(await harness.model.settledTotals() == .ready(CheckoutFixture.totals(10_199)))
        #expect(
            try harness.sentTotals() == [
                CheckoutTotalsRequest(bidId: CheckoutFixture.bidId, delivery: "pickup", paymentMethod: .ideal)
            ])
        harness.transport.verifyAllUsed()
    }

    @Test("a card saved on the screen enables card payments and is chosen, with the totals for it")
    func addCard() async throws {
        let harness = Harness()
        harness.transport.expectLoad(cards: [])
        _ = try await harness.ready()
        harness.transport.expect(
            "POST", "/payment-methods/cards", status: 201, json: CheckoutFixture.json(CheckoutFixture.visa))
        harness.transport.expectTotals(10_290)
        let saved = try await harness.model.addCard(
            AddCardRequest(number: "4242 4242 4242 4242", expMonth: 12, expYear: 2030))
        #expect(saved == CheckoutFixture.visa)
        #expect(await harness.model.settledTotals() == .ready(CheckoutFixture.totals(10_290)))
        let checkout = try #require(harness.model.screen.value.checkout)
        #expect(checkout.paymentOptions.first?.kind == .card && checkout.paymentOptions.first?.disabled == nil)
        #expect(checkout.choices.paymentMethod == .card && checkout.choices.cardId == "pm_visa" && checkout.canPay)
        harness.transport.verifyAllUsed()
    }

    @Test("the buyer's own product (a merchant's listing) is refused before the bid is fetched, and Pay does nothing")
    func ownProduct() async throws {
        let harness = Harness()
        harness.transport.expect(
            "GET", "/user/profile",
            json: CheckoutFixture.json(CheckoutFixture.profile(userId: CheckoutFixture.sellerId, merchant: true)))
        harness.transport.expect("GET", "/products/prd_1", json: CheckoutFixture.json(CheckoutFixture.product))
        #expect(
            await harness.model.load(bidId: CheckoutFixture.bidId, productId: CheckoutFixture.productId)
                == .unavailable(.ownProduct))
        #expect(await harness.model.pay() == .unavailable(.ownProduct))
        #expect(await harness.model.chooseDelivery("pickup") == false)
        #expect(harness.transport.requests.count == 2)
        harness.transport.verifyAllUsed()
    }

    @Test(
        "entry with the bid's order: a NEW one restores its choices and totals; PAYMENT_PENDING freezes them; PAID confirms; closed or unaccepted is refused"
    )
    func entryWithOrder() async throws {
        let shipping = CheckoutFixture.order(
            delivery: "postnl_standard", addressId: "adr_gb", method: .bancontact, total: 12_694)
        let harness = Harness()
        harness.transport.expectLoad(order: shipping)
        let restored = try await harness.ready()
        #expect(
            restored.choices
                == Checkout.Choices(
                    delivery: "postnl_standard", addressId: "adr_gb", paymentMethod: .bancontact, cardId: "pm_visa"))
        #expect(restored.totals == .ready(shipping.totals) && restored.isEditable && restored.canPay)
        #expect(harness.sent("POST", "/checkout/totals").isEmpty, "the order's totals are shown as they are")

        var pending = shipping
        pending.status = .paymentPending
        harness.transport.expectLoad(order: pending)
        let frozen = try await harness.ready()
        #expect(!frozen.isEditable && frozen.canPay)
        #expect(await harness.model.choosePaymentMethod(.ideal) == false)
        #expect(await harness.model.chooseDelivery("pickup") == false)
        #expect(harness.choices == frozen.choices)

        let expectations: [(BidStatus, OrderResponse?, State)] = [
            (.completed, CheckoutFixture.order(.paid), .confirmed(CheckoutFixture.order(.paid))),
            (.canceled, CheckoutFixture.order(.canceled), .unavailable(.bidNotAccepted(.canceled))),
            (.new, nil, .unavailable(.bidNotAccepted(.new))),
            (.accepted, CheckoutFixture.order(.expired), .unavailable(.orderClosed(.expired))),
        ]
        for (bidStatus, order, expected) in expectations {
            let other = Harness()
            other.transport.expectLoad(bid: CheckoutFixture.bid(bidStatus), order: order, cards: nil)
            #expect(
                await other.model.load(bidId: CheckoutFixture.bidId, productId: CheckoutFixture.productId) == expected)
            other.transport.verifyAllUsed()
        }
        harness.transport.verifyAllUsed()
    }

    @Test("no connection on entry: loadFailed with the transport error; load again shows the screen")
    func loadFails() async throws {
        let harness = Harness()
        harness.transport.expectNoAnswer("GET", "/user/profile")
        guard
            case .loadFailed(.transport) = await harness.model.load(
                bidId: CheckoutFixture.bidId, productId: CheckoutFixture.productId)
        else {
            Issue.record("expected loadFailed(.transport), got \(harness.model.screen.value)")
            return
        }
        harness.transport.expectLoad()
        _ = try await harness.ready()
        harness.transport.verifyAllUsed()
    }

    // MARK: Totals

    @Test("totals are fetched again after each change of delivery, address and payment method, with that change")
    func totalsFollowChoices() async throws {
        let harness = try await Self.loaded(.held)
        let changes: [(PaymentScreenModel) async -> Bool] = [
            { await $0.choosePaymentMethod(.ideal) }, { await $0.chooseDelivery("postnl_standard") },
            { await $0.chooseAddress("adr_gb") }, { await $0.choosePaymentMethod(.card) },
        ]
        for (index, change) in changes.enumerated() {
            let total = Int64(11_000 + index)
            harness.transport.expectTotals(total)
            #expect(await change(harness.model))
            guard case .refreshing = harness.model.screen.value.checkout?.totals else {
                Issue.record("change \(index): totals not refreshing: \(harness.model.screen.value)")
                return
            }
            #expect(await harness.releaseDebounce() == .ready(CheckoutFixture.totals(total)))
        }
        let bid = CheckoutFixture.bidId
        #expect(
            try harness.sentTotals() == [
                CheckoutTotalsRequest(bidId: bid, delivery: "pickup", paymentMethod: .ideal),
                CheckoutTotalsRequest(
                    bidId: bid, delivery: "postnl_standard", addressId: "adr_nl", paymentMethod: .ideal),
                CheckoutTotalsRequest(
                    bidId: bid, delivery: "postnl_standard", addressId: "adr_gb", paymentMethod: .ideal),
                CheckoutTotalsRequest(
                    bidId: bid, delivery: "postnl_standard", addressId: "adr_gb", paymentMethod: .card),
            ])
        #expect(harness.sleeper.durations == Array(repeating: Self.debounce, count: 4))
        // The card itself costs nothing extra: choosing another does not ask again.
        #expect(await harness.model.chooseCard("pm_visa"))
        harness.transport.verifyAllUsed()
    }

    @Test("five quick changes send one totals request, for the last choices")
    func debounced() async throws {
        let harness = try await Self.loaded(.held)
        harness.transport.expectTotals(12_345)
        #expect(await harness.model.choosePaymentMethod(.ideal))
        #expect(await harness.model.chooseDelivery("postnl_standard"))
        #expect(await harness.model.choosePaymentMethod(.bancontact))
        #expect(await harness.model.chooseAddress("adr_gb"))
        #expect(await harness.model.choosePaymentMethod(.card))
        #expect(await harness.releaseDebounce() == .ready(CheckoutFixture.totals(12_345)))
        #expect(
            try harness.sentTotals() == [
                CheckoutTotalsRequest(
                    bidId: CheckoutFixture.bidId, delivery: "postnl_standard", addressId: "adr_gb", paymentMethod: .card
                )
            ])
        harness.transport.verifyAllUsed()
    }

    @Test("an answer for older choices that arrives after the newer one is dropped")
    func staleTotalsIgnored() async throws {
        let harness = try await Self.loaded()
        let gate = Channel<Void>()
        harness.transport.expectHeld(
            "POST", "/checkout/totals", until: gate, json: CheckoutFixture.json(CheckoutFixture.totals(10_199)))
        harness.transport.expectTotals(10_489)
        #expect(await harness.model.choosePaymentMethod(.ideal))
        #expect(await eventually { harness.sent("POST", "/checkout/totals").count == 1 })
        #expect(await harness.model.choosePaymentMethod(.card))
        #expect(
            await eventually { harness.model.screen.value.checkout?.totals == .ready(CheckoutFixture.totals(10_489)) })
        await gate.send(())
        #expect(await harness.model.settledTotals() == .ready(CheckoutFixture.totals(10_489)))
        #expect(harness.choices?.paymentMethod == .card)
        #expect(harness.model.screen.value.checkout?.canPay == true)
        harness.transport.verifyAllUsed()
    }

    @Test("totals the server refuses are shown as failed, and Pay stays off")
    func totalsRefused() async throws {
        let harness = try await Self.loaded()
        harness.transport.expect(
            "POST", "/checkout/totals", status: 422,
            json: #"{"error":{"code":"no_route","message":"postnl_standard does not ship to GB."}}"#)
        #expect(await harness.model.choosePaymentMethod(.ideal))
        guard case .failed(let error)? = await harness.model.settledTotals() else {
            Issue.record("totals not failed: \(harness.model.screen.value)")
            return
        }
        #expect(error.code == "no_route")
        #expect(await harness.model.pay().checkout?.canPay == false)
        harness.transport.verifyAllUsed()
    }
}

extension PaymentScreenModel.State {
    /// The screen's contents when it is `.ready`.
    var readyCheckout: Checkout? {
        if case .ready(let checkout) = self { checkout } else { nil }
    }
}
