import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The whole checkout through Countersign's HTTP API with the Stripe provider pointed at the fake
/// Stripe: cards, 3-D Secure, declines, iDEAL, Stripe-signed webhooks, concurrent pays, and Stripe
/// being unavailable. At most one payment per order, whatever happens.
@Suite("Checkout with Stripe")
struct StripeCheckoutTests {
    /// A fake Stripe and a Countersign server whose provider is Stripe at that fake.
    static func run(_ engine: DatabaseEngine, _ body: @Sendable (LiveServer, FakeStripe) async throws -> Void)
        async throws
    {
        try await FakeStripe.run { fake in
            let stripe = try fake.configuration()
            try await LiveServer.run(engine, configure: { $0.stripe = stripe }) { server in
                #expect(server.services.paymentProvider is StripePaymentProvider)
                try await body(server, fake)
            }
            #expect(fake.unexpected.isEmpty, "requests the fake does not know: \(fake.unexpected)")
        }
    }

    /// A card order waiting to be paid, and the buyer's card `number` saved with Stripe.
    static func cardOrder(_ server: LiveServer, _ number: String) async throws -> (
        buyer: TestUser, order: OrderResponse, card: String
    ) {
        let (buyer, order) = try await OrderPaymentTests.order(server, method: .card)
        return (buyer, order, try await OrderPaymentTests.card(server, buyer, number))
    }

    /// An order paid by redirect whose payer authorized at Stripe; nobody has told the server yet.
    static func authorizedAtStripe(_ server: LiveServer, _ fake: FakeStripe, method: PaymentMethodKind) async throws
        -> (buyer: TestUser, order: OrderResponse, intentId: String)
    {
        let (buyer, order) = try await OrderPaymentTests.order(server, method: method)
        _ = try await pay(server, buyer, order)
        let intent = try #require(intents(fake, order: order).first)
        try fake.completeRedirect(intent.id)
        return (buyer, order, intent.id)
    }

    /// The fake's intents for `order`.
    static func intents(_ fake: FakeStripe, order: OrderResponse) -> [FakePaymentIntent] {
        fake.intents.filter { $0.metadata["order_id"] == order.id }
    }

    static func pay(_ server: LiveServer, _ buyer: TestUser, _ order: OrderResponse, card: String? = nil) async throws
        -> APIResponse
    {
        try await server.client.post(
            "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card, returnURL: "https://app.example/return"),
            token: buyer.token)
    }

    static func poll(_ server: LiveServer, _ buyer: TestUser, _ order: OrderResponse) async throws
        -> OrderPaymentResponse
    {
        try await server.client.get("/orders/\(order.id)/payment", token: buyer.token).decode(OrderPaymentResponse.self)
    }

    static func storedStatus(_ server: LiveServer, _ order: OrderResponse) async throws -> String? {
        try await server.database.read { sql in
            try await sql.first("SELECT status FROM orders WHERE id = $1", [.text(order.id)])?.string("status")
        }
    }

    @Test(
        "a card that succeeds pays the order once, for the server's total; a second pay is refused",
        arguments: TestEngines.all)
    func cardSucceeds(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4242 4242 4242 4242")
            #expect(fake.paymentMethod(card)?.customer != nil, "the card is Stripe's, attached to the buyer's customer")
            #expect(
                try await server.client.get("/payment-methods/cards", token: buyer.token).decode(SavedCardList.self)
                    .cards.map(\.id) == [card])
            let paid = try await Self.pay(server, buyer, order, card: card).decode(OrderPaymentResponse.self)
            #expect(paid.orderStatus == .paid && paid.paymentStatus == "succeeded")
            #expect(
                try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(BidResponse.self).status
                    == .completed)
            let again = try await Self.pay(server, buyer, order, card: card)
            #expect(again.status == 409 && again.errorCode == "order_paid")
            let intents = Self.intents(fake, order: order)
            #expect(
                intents.count == 1 && intents.first?.amount == order.totals.total && intents.first?.currency == "eur")
            #expect(
                fake.calls.contains { $0.path == "/v1/payment_intents" && $0.idempotencyKey == "order_\(order.id)_1" })
            // The simulator's hosted page is not served when Stripe takes the payments.
            #expect(try await server.client.get("/sim/pay/pi_1").status == 404)
        }
    }

    @Test(
        "3-D Secure: a redirect to Stripe, then the poll sees PAID once the payer authenticated",
        arguments: TestEngines.all)
    func threeDSecure(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4000 0027 6000 3184")
            let started = try await Self.pay(server, buyer, order, card: card).decode(OrderPaymentResponse.self)
            #expect(started.orderStatus == .paymentPending && started.paymentStatus == "requires_action")
            #expect(started.redirectURL?.hasPrefix("https://hooks.stripe.com/3d_secure_2/hosted?") == true)
            #expect(try await Self.poll(server, buyer, order).orderStatus == .paymentPending)
            let intent = try #require(Self.intents(fake, order: order).first)
            try fake.completeRedirect(intent.id)
            let polled = try await Self.poll(server, buyer, order)
            #expect(polled.orderStatus == .paid && polled.paymentStatus == "succeeded" && polled.redirectURL == nil)
            #expect(Self.intents(fake, order: order).count == 1)
        }
    }

    @Test(
        "Stripe's decline cards are refused when saved; …0341 saves, is declined at payment, the order is NEW again; another card then pays",
        arguments: TestEngines.all)
    func declinedThenAnotherCard(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order) = try await OrderPaymentTests.order(server, method: .card)
            for (number, code) in [
                ("4000 0000 0000 0002", "card_declined"), ("4000 0000 0000 9995", "insufficient_funds"),
            ] {
                let refused = try await server.client.post(
                    "/payment-methods/cards",
                    AddCardRequest(number: number, expMonth: 12, expYear: SimulatedPaymentProviderTests.expYear),
                    token: buyer.token
                )
                #expect(refused.status == 422 && refused.errorCode == code, "\(number): \(refused.text)")
            }
            let card = try await OrderPaymentTests.card(server, buyer, "4000 0000 0000 0341")
            let declined = try await Self.pay(server, buyer, order, card: card).decode(OrderPaymentResponse.self)
            #expect(declined.orderStatus == .new && declined.error?.code == "card_declined")
            let good = try await OrderPaymentTests.card(server, buyer, "4242424242424242")
            let paid = try await Self.pay(server, buyer, order, card: good).decode(OrderPaymentResponse.self)
            #expect(paid.orderStatus == .paid && paid.error == nil)
            #expect(
                Self.intents(fake, order: order).map(\.status).sorted() == ["requires_payment_method", "succeeded"])
            #expect(
                fake.calls.filter { $0.path == "/v1/payment_intents" }.compactMap(\.idempotencyKey)
                    == (1...2).map { "order_\(order.id)_\($0)" })
        }
    }

    @Test(
        "a card payment without returnURL is 400 return_url_required and leaves the order NEW; with one, 3-D Secure redirects",
        arguments: TestEngines.all)
    func cardNeedsReturnURL(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4000 0027 6000 3184")
            let refused = try await server.client.post(
                "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card), token: buyer.token)
            #expect(refused.status == 400 && refused.errorCode == "return_url_required", "\(refused.text)")
            #expect(try await Self.storedStatus(server, order) == "NEW")
            #expect(Self.intents(fake, order: order).isEmpty)
            let started = try await Self.pay(server, buyer, order, card: card).decode(OrderPaymentResponse.self)
            #expect(
                started.orderStatus == .paymentPending
                    && started.redirectURL?.hasPrefix("https://hooks.stripe.com/3d_secure_2/hosted?") == true)
            #expect(Self.intents(fake, order: order).first?.returnURL == "https://app.example/return")
        }
    }

    @Test(
        "a cancel that loses the race with a success answers 409 order_paid, and the order is PAID",
        arguments: TestEngines.all)
    func cancelRacingSuccess(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4000 0027 6000 3184")
            #expect(
                try await Self.pay(server, buyer, order, card: card).decode(OrderPaymentResponse.self).orderStatus
                    == .paymentPending)
            let intent = try #require(Self.intents(fake, order: order).first)
            fake.succeedBeforeNextCancel(intent.id)
            let canceled = try await server.client.post("/orders/\(order.id)/payment/cancel", token: buyer.token)
            #expect(canceled.status == 409 && canceled.errorCode == "order_paid", "\(canceled.text)")
            #expect(try await Self.storedStatus(server, order) == "PAID")
            #expect(fake.intent(intent.id)?.status == "succeeded")
        }
    }

    @Test(
        "an intent canceled at Stripe after a failed 3-D Secure is recorded as canceled, not by its earlier error",
        arguments: TestEngines.all)
    func canceledIntentWithEarlierError(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4000 0027 6000 3184")
            _ = try await Self.pay(server, buyer, order, card: card)
            let intent = try #require(Self.intents(fake, order: order).first)
            try fake.failRedirect(intent.id)
            try fake.cancelAtStripe(intent.id)
            #expect(
                fake.intent(intent.id)?.lastPaymentError != .null, "Stripe keeps the earlier error on a canceled intent"
            )
            let polled = try await Self.poll(server, buyer, order)
            #expect(
                polled.orderStatus == .new && polled.paymentStatus == "canceled"
                    && polled.error?.code == "payment_canceled", "\(polled)")
        }
    }

    @Test("iDEAL: a redirect to the bank, the payer authorizes, the poll sees PAID", arguments: TestEngines.all)
    func idealRedirect(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order) = try await OrderPaymentTests.order(server, method: .ideal)
            let started = try await Self.pay(server, buyer, order).decode(OrderPaymentResponse.self)
            #expect(
                started.orderStatus == .paymentPending
                    && started.redirectURL?.hasPrefix("https://pm-redirects.stripe.com/") == true)
            let intent = try #require(Self.intents(fake, order: order).first)
            #expect(intent.paymentMethodTypes == ["ideal"] && intent.returnURL == "https://app.example/return")
            try fake.completeRedirect(intent.id)
            #expect(try await Self.poll(server, buyer, order).orderStatus == .paid)
        }
    }

    @Test(
        "a Stripe-signed webhook settles the order; duplicates and out-of-order events are harmless",
        arguments: TestEngines.all)
    func stripeWebhookSettles(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, intentId) = try await Self.authorizedAtStripe(server, fake, method: .bancontact)
            let succeeded = try fake.event("payment_intent.succeeded", intentId: intentId)
            #expect(try await Self.webhook(server, succeeded).status == 200)
            #expect(try await Self.storedStatus(server, order) == "PAID")
            #expect(try await Self.webhook(server, succeeded).status == 200)
            #expect(
                try await Self.webhook(server, try fake.event("payment_intent.payment_failed", intentId: intentId))
                    .status == 200)
            #expect(
                try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self).status
                    == .paid)
            #expect(
                try await server.client.get("/bids/\(order.bidId)", token: buyer.token).decode(BidResponse.self).status
                    == .completed)
        }
    }

    @Test(
        "a badly signed, stale or wrongly keyed Stripe webhook is 400 and changes nothing", arguments: TestEngines.all)
    func badStripeSignature(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (_, order, intentId) = try await Self.authorizedAtStripe(server, fake, method: .ideal)
            let body = try fake.event("payment_intent.succeeded", intentId: intentId)
            let forged = try await Self.webhook(server, body, secret: "whsec_someoneElse0123456789abcdef")
            #expect(forged.status == 400 && forged.errorCode == "invalid_signature")
            let countersignSecret = try await Self.webhook(server, body, secret: LiveServer.webhookSecret)
            #expect(countersignSecret.status == 400 && countersignSecret.errorCode == "invalid_signature")
            let stale = try await Self.webhook(server, body, ageSeconds: 600)
            #expect(stale.status == 400 && stale.errorCode == "stale_signature")
            var tampered = body
            tampered[tampered.count / 2] ^= 0x01
            #expect(try await Self.webhook(server, tampered, signedBody: body).status == 400)
            #expect(try await Self.storedStatus(server, order) == "PAYMENT_PENDING")
        }
    }

    @Test("eight concurrent pays on one order take one payment", arguments: TestEngines.all)
    func concurrentPays(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4242 4242 4242 4242")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.pay(server, buyer, order, card: card).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "\(statuses)")
            #expect(Self.intents(fake, order: order).count == 1)
            #expect(try await Self.storedStatus(server, order) == "PAID")
        }
    }

    @Test(
        "Stripe failing mid-payment is a 502; the order waits; the next poll reaches the same intent",
        arguments: TestEngines.all)
    func stripeUnavailable(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (buyer, order, card) = try await Self.cardOrder(server, "4242 4242 4242 4242")
            fake.failNext(status: 500)
            let failed = try await Self.pay(server, buyer, order, card: card)
            #expect(failed.status == 502 && failed.errorCode == "payment_provider_unavailable", "\(failed.text)")
            #expect(try await Self.storedStatus(server, order) == "PAYMENT_PENDING")
            let polled = try await Self.poll(server, buyer, order)
            #expect(polled.orderStatus == .paid)
            #expect(Self.intents(fake, order: order).count == 1)
        }
    }

    static func webhook(
        _ server: LiveServer, _ body: [UInt8], secret: String = FakeStripe.webhookSecret, ageSeconds: Int64 = 0,
        signedBody: [UInt8]? = nil
    ) async throws -> APIResponse {
        let header = FakeStripe.signature(
            signedBody ?? body, timestamp: server.clock.wallClock.nowMillis() / 1000 - ageSeconds, secret: secret)
        return try await server.client.send(
            .POST, "/webhooks/payments", raw: body, headers: [("Stripe-Signature", header)])
    }
}

extension StripeCheckoutTests {
    @Test(
        "a seller's refund goes to Stripe's Refunds API for the order's intent, once per refund",
        arguments: TestEngines.all)
    func refundAtStripe(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (seller, _, order) = try await RefundTests.paidOrder(server, returnURL: "https://app.example/return")
            let intent = try #require(Self.intents(fake, order: order).first)

            for _ in 0..<2 {
                let refund = try await RefundTests.refund(server, order.id, 2_000, key: "stripe-1", token: seller.token)
                #expect(refund.status == 201 || refund.status == 200, "\(refund.text)")
                #expect(try refund.decode(RefundResponse.self).status == .succeeded)
            }
            let refunds = fake.refunds
            #expect(refunds.count == 1, "one refund at Stripe for one key: \(refunds)")
            #expect(refunds.first?["payment_intent"] == .string(intent.id) && refunds.first?["amount"] == .int(2_000))
            let beyond = try await RefundTests.refund(server, order.id, 8_696, token: seller.token)
            #expect(beyond.status == 422 && beyond.errorCode == "refund_exceeds_paid")
            #expect(fake.refunds.count == 1, "a refused refund never reaches Stripe")
            try await LedgerAudit.check(server.database)
        }
    }
}

extension StripeCheckoutTests {
    @Test(
        "a refund Stripe could not be asked for stays pending, held from the seller, until the sweeper asks",
        arguments: TestEngines.all)
    func refundWhileStripeIsDown(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server, fake in
            let (seller, buyer, order) = try await RefundTests.paidOrder(
                server, returnURL: "https://app.example/return")
            fake.failNext(1, status: 500)
            let refund = try await RefundTests.refund(server, order.id, 3_000, token: seller.token)
            #expect(refund.status == 201, "\(refund.text)")
            #expect(try refund.decode(RefundResponse.self).status == .pending)
            #expect(fake.refunds.isEmpty)
            #expect(try await RefundTests.escrow(server, seller) == 7_695, "held away from the seller meanwhile")
            server.clock.advance(seconds: 180)
            #expect(await server.services.pendingOrderSweeper.sweepRefunds() == 1)
            let listed = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self)
            #expect(listed.refunds.map(\.status) == [.succeeded])
            #expect(fake.refunds.count == 1)
            try await LedgerAudit.check(server.database, now: server.services.clock.nowMillis())
        }
    }
}
