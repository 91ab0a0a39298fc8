import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Testing

/// Paying: the order, the provider, the redirect, the polls, and the ways back to the screen.
extension PaymentScreenModelTests {
    static let redirectURL = URL(string: CheckoutFixture.redirect)
    static let requiresAction = CheckoutFixture.payment(
        .paymentPending, intent: "requires_action", redirect: CheckoutFixture.redirect)
    static let paid = CheckoutFixture.payment(.paid, intent: "succeeded")

    /// `order` once paid.
    static func confirmed(_ order: OrderResponse = CheckoutFixture.order()) -> State {
        var paid = order
        paid.status = .paid
        return .confirmed(paid)
    }

    @Test(
        "card without 3-D Secure: the order is placed with the choices, the chosen card charged, the confirmation shown; no redirect, no poll"
    )
    func cardSucceeds() async throws {
        let harness = try await Self.loaded()
        harness.transport.expectTotals(10_290)
        #expect(await harness.model.choosePaymentMethod(.card))
        await harness.model.settledTotals()
        let placed = CheckoutFixture.order(method: .card, total: 10_290)
        harness.transport.expectPlaceOrder(placed)
        harness.transport.expectPay(Self.paid)
        #expect(await harness.model.pay() == Self.confirmed(placed))
        let order = try CheckoutFixture.body(
            try #require(harness.sent("POST", "/orders").first), as: CheckoutTotalsRequest.self)
        #expect(order == CheckoutTotalsRequest(bidId: CheckoutFixture.bidId, delivery: "pickup", paymentMethod: .card))
        let pay = try CheckoutFixture.body(
            try #require(harness.sent("POST", "/orders/ord_1/pay").first), as: PayOrderRequest.self)
        #expect(pay == PayOrderRequest(paymentMethodId: "pm_visa", returnURL: CheckoutFixture.returnURL))
        #expect(harness.redirects.opened.isEmpty && harness.sleeper.durations == [Self.debounce])
        harness.transport.verifyAllUsed()
    }

    @Test("3-D Secure: the payer is sent to the provider's page, comes back, and the first poll finds the order paid")
    func threeDSecure() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.returned))
        _ = try await Self.resumed(harness, method: .card)
        let recorder = StateRecorder(harness.model.screen)
        let order = CheckoutFixture.order(method: .card)
        harness.transport.expectPlaceOrder(order)
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.paid)
        let url = try #require(Self.redirectURL)
        #expect(await harness.model.pay() == Self.confirmed(order))
        #expect(harness.redirects.opened == [url])
        let steps = recorder.recorded.compactMap { state -> PaymentScreenModel.PaymentStep? in
            if case .paying(_, let step) = state { step } else { nil }
        }
        #expect(
            steps == [
                .placingOrder, .startingPayment(orderId: CheckoutFixture.orderId), .redirected(url),
                .confirming(attempt: 1),
            ])
        harness.transport.verifyAllUsed()
    }

    @Test(
        "iDEAL abandoned: back on the screen with the choices kept and frozen; Pay resumes the same payment, which then completes"
    )
    func idealAbandoned() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.abandoned, .returned))
        let before = try await Self.resumed(harness)
        harness.transport.expectPlaceOrder(CheckoutFixture.order())
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.requiresAction)
        let back = try #require(await harness.model.pay().readyCheckout)
        #expect(back.notice == .paymentAbandoned)
        #expect(back.choices == before.choices && back.totals == before.totals)
        #expect(
            !back.isEditable && back.canPay,
            "the payment waits for the payer: Pay resumes it, choices cannot change under it")
        #expect(await harness.model.choosePaymentMethod(.bancontact) == false)

        harness.transport.expectPlaceOrder(CheckoutFixture.order(.paymentPending))
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.paid)
        #expect(await harness.model.pay() == Self.confirmed(CheckoutFixture.order(.paymentPending)))
        #expect(harness.redirects.opened.count == 2)
        harness.transport.verifyAllUsed()
    }

    @Test(
        "still pending after the first poll and three more, an interval apart: paymentFailing; checking again later finds it paid"
    )
    func pendingThenFailing() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.returned))
        let before = try await Self.resumed(harness)
        harness.transport.expectPlaceOrder(CheckoutFixture.order())
        harness.transport.expectPay(Self.requiresAction)
        for _ in 0..<4 { harness.transport.expectPoll(CheckoutFixture.payment(.paymentPending, intent: "processing")) }
        guard case .paymentFailing(let checkout, let orderId) = await harness.model.pay() else {
            Issue.record("expected paymentFailing, got \(harness.model.screen.value)")
            return
        }
        #expect(orderId == CheckoutFixture.orderId && checkout.choices == before.choices)
        #expect(harness.sent("GET", "/orders/ord_1/payment").count == 4)
        #expect(harness.sleeper.durations == Array(repeating: Self.interval, count: 3))

        harness.transport.expectPoll(Self.paid)
        #expect(await harness.model.checkAgain() == Self.confirmed())
        harness.transport.verifyAllUsed()
    }

    @Test(
        "a declined card: back on the screen with the reason, choices kept and editable; the next change clears the reason"
    )
    func declined() async throws {
        let harness = Harness()
        let before = try await Self.resumed(harness, method: .card)
        let failure = OrderPaymentResponse.Failure(code: "card_declined", message: "Your card was declined.")
        harness.transport.expectPlaceOrder(CheckoutFixture.order(method: .card))
        harness.transport.expectPay(CheckoutFixture.payment(.new, intent: "requires_payment_method", error: failure))
        let back = try #require(await harness.model.pay().readyCheckout)
        #expect(back.notice == .paymentFailed(failure))
        #expect(back.choices == before.choices && back.isEditable && back.canPay)
        #expect(harness.sent("GET", "/orders/ord_1/payment").isEmpty, "a failure the pay answer reports needs no poll")

        harness.transport.expectTotals(10_199)
        #expect(await harness.model.choosePaymentMethod(.ideal))
        #expect(await harness.model.settledTotals() == .ready(CheckoutFixture.totals(10_199)))
        #expect(harness.model.screen.value.checkout?.notice == nil)
        harness.transport.verifyAllUsed()
    }

    @Test("Pay pressed again while a payment runs starts nothing: one order request, one pay request")
    func doublePay() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.returned))
        _ = try await Self.resumed(harness)
        let gate = Channel<Void>()
        harness.transport.expectHeld(
            "POST", "/orders", until: gate, json: CheckoutFixture.json(CheckoutFixture.order()))
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.paid)
        let first = Task { await harness.model.pay() }
        #expect(await eventually { harness.sent("POST", "/orders").count == 1 })
        guard case .paying(_, .placingOrder) = await harness.model.pay() else {
            Issue.record("the second Pay did not leave the first one running: \(harness.model.screen.value)")
            return
        }
        await gate.send(())
        #expect(await first.value == Self.confirmed())
        #expect(await harness.model.pay() == Self.confirmed())
        #expect(harness.sent("POST", "/orders").count == 1 && harness.sent("POST", "/orders/ord_1/pay").count == 1)
        harness.transport.verifyAllUsed()
    }

    @Test(
        "connection lost: before the payment, back on the screen with the error; after it, statusUnknown until checked again"
    )
    func connectionLost() async throws {
        let harness = Harness()
        let before = try await Self.resumed(harness)
        harness.transport.expectNoAnswer("POST", "/orders")
        let back = try #require(await harness.model.pay().readyCheckout)
        guard case .error(.transport(_))? = back.notice else {
            Issue.record("expected a transport error on the screen, got \(String(describing: back.notice))")
            return
        }
        #expect(back.choices == before.choices && back.canPay)

        harness.transport.expectPlaceOrder(CheckoutFixture.order())
        harness.transport.expectNoAnswer("POST", "/orders/ord_1/pay")
        harness.transport.expectNoAnswer("GET", "/orders/ord_1/payment")
        guard case .statusUnknown(_, let orderId, .transport(_)) = await harness.model.pay() else {
            Issue.record("expected statusUnknown, got \(harness.model.screen.value)")
            return
        }
        #expect(orderId == CheckoutFixture.orderId)
        harness.transport.expectPoll(Self.paid)
        #expect(await harness.model.checkAgain() == Self.confirmed())
        harness.transport.verifyAllUsed()
    }

    @Test(
        "buy-now abandoned: the bid is withdrawn once the provider lets go of the payment; an ordinary bid is never withdrawn from here"
    )
    func buyNowAbandoned() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.abandoned))
        harness.transport.expectLoad(bid: CheckoutFixture.bid(buyNow: true), order: CheckoutFixture.order())
        _ = try await harness.ready()
        harness.transport.expectPlaceOrder(CheckoutFixture.order())
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.requiresAction)
        #expect(await harness.model.pay().readyCheckout?.notice == .paymentAbandoned)

        harness.transport.expect(
            "POST", "/bids/bid_1/withdraw", status: 409,
            json: #"{"error":{"code":"payment_in_progress","message":"Wait."}}"#)
        let refused = try #require(await harness.model.abandon().readyCheckout)
        guard case .error(let error)? = refused.notice else {
            Issue.record("expected the refusal on the screen, got \(String(describing: refused.notice))")
            return
        }
        #expect(error.code == "payment_in_progress")
        let withdrawn = CheckoutFixture.bid(.canceled, buyNow: true)
        harness.transport.expect("POST", "/bids/bid_1/withdraw", json: CheckoutFixture.json(withdrawn))
        #expect(await harness.model.abandon() == .withdrawn(withdrawn))
        #expect(await harness.model.pay() == .withdrawn(withdrawn))
        harness.transport.verifyAllUsed()

        let ordinary = Harness()
        _ = try await Self.resumed(ordinary)
        #expect(await ordinary.model.abandon().readyCheckout != nil)
        #expect(ordinary.sent("POST", "/bids/bid_1/withdraw").isEmpty)
        ordinary.transport.verifyAllUsed()
    }
}

extension PaymentScreenModelTests {
    /// Pays by iDEAL and walks away from the bank's page: back on the screen, the payment waiting.
    static func leftWaiting(_ harness: Harness) async throws -> Checkout {
        _ = try await Self.resumed(harness)
        harness.transport.expectPlaceOrder(CheckoutFixture.order())
        harness.transport.expectPay(Self.requiresAction)
        harness.transport.expectPoll(Self.requiresAction)
        return try #require(await harness.model.pay().readyCheckout)
    }

    @Test("an abandoned iDEAL payment is canceled: the order is NEW again and the buyer may choose another method")
    func cancelAbandoned() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.abandoned))
        let waiting = try await Self.leftWaiting(harness)
        #expect(!waiting.isEditable)
        harness.transport.expect(
            "POST", "/orders/\(CheckoutFixture.orderId)/payment/cancel",
            json: CheckoutFixture.json(
                CheckoutFixture.payment(
                    .new, intent: "canceled",
                    error: .init(code: "payment_canceled", message: "The payment was canceled.")))
        )
        let reopened = try #require(await harness.model.cancelPayment().readyCheckout)
        #expect(reopened.isEditable && reopened.notice == nil && reopened.choices == waiting.choices)
        harness.transport.expectTotals(10_290)
        #expect(await harness.model.choosePaymentMethod(.card), "another method can be chosen now")
        await harness.model.settledTotals()
        #expect(
            await harness.model.cancelPayment().readyCheckout?.isEditable == true, "nothing under way: nothing sent")
        harness.transport.verifyAllUsed()
    }

    @Test("canceling a payment that went through meanwhile shows the confirmation")
    func cancelTooLate() async throws {
        let harness = Harness(redirects: ScriptedRedirectHandler(.abandoned))
        _ = try await Self.leftWaiting(harness)
        harness.transport.expect(
            "POST", "/orders/\(CheckoutFixture.orderId)/payment/cancel", status: 409,
            json: #"{"error":{"code":"order_paid","message":"This order is paid already."}}"#)
        var paid = CheckoutFixture.order()
        paid.status = .paid
        harness.transport.expect("GET", "/bids/\(CheckoutFixture.bidId)/order", json: CheckoutFixture.json(paid))
        #expect(await harness.model.cancelPayment() == .confirmed(paid))
        harness.transport.verifyAllUsed()
    }
}
