import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Order refunds: by the seller until the proceeds are released, by an operator at any time; never
/// more than the order's price and shipping, also in parallel; the provider's outcome decides.
@Suite("Order refunds")
struct RefundTests {
    /// A paid order (price 10,000 + 695 shipping, card `number`), its seller and buyer. Stripe wants
    /// a `returnURL`.
    static func paidOrder(
        _ server: LiveServer, card number: String = "4242 4242 4242 4242", returnURL: String? = nil
    ) async throws -> (seller: TestUser, buyer: TestUser, order: OrderResponse) {
        let (seller, buyer, bid, address) = try await OrderTests.acceptedBid(server)
        let order = try await server.client.post(
            "/orders",
            CheckoutTotalsRequest(bidId: bid.id, delivery: "postnl_standard", addressId: address, paymentMethod: .card),
            token: buyer.token
        ).decode(OrderResponse.self)
        let card = try await OrderPaymentTests.card(server, buyer, number)
        let paid = try await server.client.post(
            "/orders/\(order.id)/pay", PayOrderRequest(paymentMethodId: card, returnURL: returnURL), token: buyer.token
        ).decode(OrderPaymentResponse.self)
        try #require(paid.orderStatus == .paid)
        return (seller, buyer, order)
    }

    static func refund(
        _ server: LiveServer, _ order: String, _ amount: Int64, key: String = UUID().uuidString, token: String,
        reason: String = "Scratched on arrival"
    ) async throws -> APIResponse {
        try await server.client.post(
            "/orders/\(order)/refunds", CreateRefundRequest(amount: amount, reason: reason), token: token,
            headers: [("Idempotency-Key", key)])
    }

    static func escrow(_ server: LiveServer, _ user: TestUser) async throws -> Int64 {
        try await OrderMoneyTests.balance(server, "acct:\(user.userId):escrow:EUR")
    }

    /// The bank fails refund `refundId` at the simulated provider (the refund itself stays pending
    /// until the webhook or the sweeper hears of it).
    static func failAtProvider(_ server: LiveServer, refundId: String, succeeded: Bool = false) async throws {
        _ = try await #require(server.services.simulatedPaymentProvider).settleRefund(
            id: try await providerRefundId(server, refundId), succeeded: succeeded)
    }

    static func providerRefundId(_ server: LiveServer, _ refundId: String) async throws -> String {
        try #require(
            try await server.database.read { sql in
                try await sql.first("SELECT provider_refund_id FROM order_refunds WHERE id = $1", [.text(refundId)])?
                    .optionalString("provider_refund_id")
            })
    }

    @Test(
        "a signed refund webhook settles a pending refund from the provider's word, once", arguments: TestEngines.all)
    func webhookSettles(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server, card: "4000 0000 0000 5126")
            let made = try await Self.refund(server, order.id, 5_000, token: seller.token).decode(RefundResponse.self)
            let providerId = try await Self.providerRefundId(server, made.id)
            // The event's word is never taken: while the provider still says pending, nothing settles.
            let early = Array(#"{"id":"evt_1","type":"refund.failed","data":{"object":{"id":"\#(providerId)"}}}"#.utf8)
            #expect(try await PaymentWebhookTests.send(server, early).status == 200)
            let stillPending = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self)
            #expect(stillPending.refunds.first?.status == .pending)

            try await Self.failAtProvider(server, refundId: made.id, succeeded: true)
            let body = Array(
                #"{"id":"evt_2","type":"charge.refund.updated","data":{"object":{"id":"\#(providerId)"}}}"#.utf8)
            for _ in 0..<2 { #expect(try await PaymentWebhookTests.send(server, body).status == 200) }
            let settled = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self)
            #expect(settled.refunds.first?.status == .succeeded)
            #expect(try await OrderMoneyTests.balance(server, "sys:refund_clearing:EUR") == 0)
            #expect(try await OrderMoneyTests.bookings(server, order: made.id, kind: "order_refund_settled") == 1)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "the seller refunds in parts up to the price and shipping, never more; the buyer sees each refund",
        arguments: TestEngines.all)
    func partialRefunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server)
            let first = try await Self.refund(server, order.id, 3_000, key: "first", token: seller.token)
            #expect(first.status == 201, "\(first.text)")
            let made = try first.decode(RefundResponse.self)
            #expect(made.status == .succeeded && made.amount == 3_000 && made.requestedBy == "seller")
            let again = try await Self.refund(server, order.id, 3_000, key: "first", token: seller.token)
            #expect(again.status == 200 && again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try again.decode(RefundResponse.self).id == made.id)
            let reused = try await Self.refund(server, order.id, 2_000, key: "first", token: seller.token)
            #expect(reused.status == 422 && reused.errorCode == "idempotency_key_reused")

            let byBuyer = try await Self.refund(server, order.id, 100, token: buyer.token)
            #expect(byBuyer.status == 403 && byBuyer.errorCode == "not_seller")
            let stranger = try await server.signup()
            let byStranger = try await Self.refund(server, order.id, 100, token: stranger.token)
            #expect(byStranger.status == 404 && byStranger.errorCode == "order_not_found")
            let noKey = try await server.client.post(
                "/orders/\(order.id)/refunds", CreateRefundRequest(amount: 100, reason: "x"), token: seller.token)
            #expect(noKey.status == 400 && noKey.errorCode == "missing_idempotency_key")
            let blank = try await Self.refund(server, order.id, 100, token: seller.token, reason: "\u{200B}")
            #expect(blank.status == 422 && blank.errorCode == "invalid_reason")

            let tooMuch = try await Self.refund(server, order.id, 7_696, token: seller.token)
            #expect(tooMuch.status == 422 && tooMuch.errorCode == "refund_exceeds_paid")
            #expect(try tooMuch.decode(ErrorResponse.self).error.available == 7_695)
            #expect(try await LedgerAudit.count("order_refunds", server.database) == 1, "nothing was written")

            let rest = try await Self.refund(server, order.id, 7_695, token: seller.token)
            #expect(rest.status == 201)
            #expect(try rest.decode(RefundResponse.self).status == .succeeded)
            let none = try await Self.refund(server, order.id, 1, token: seller.token)
            #expect(none.status == 422)
            #expect(try none.decode(ErrorResponse.self).error.available == 0)

            let seen = try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self)
            #expect(seen.refunded == 10_695 && seen.refundable == 0)
            #expect(seen.refunds?.map(\.amount) == [3_000, 7_695])
            let listed = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self)
            #expect(listed.refunds.map(\.reason) == ["Scratched on arrival", "Scratched on arrival"])
            #expect(try await server.client.get("/orders/\(order.id)/refunds", token: stranger.token).status == 404)

            // The seller's escrow gave it all back; the provider paid the buyer; nothing is left to release.
            #expect(try await Self.escrow(server, seller) == 0)
            #expect(try await OrderMoneyTests.balance(server, "sys:provider_clearing:EUR") == -310)
            #expect(try await OrderMoneyTests.balance(server, "sys:refund_clearing:EUR") == 0)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
            #expect(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 0, payable: 0, currency: "EUR"))
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("30 parallel refunds never return more than was paid", arguments: TestEngines.all)
    func parallelRefunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, _, order) = try await Self.paidOrder(server)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask { try await Self.refund(server, order.id, 1_000, token: seller.token).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 422 }.count == 20, "\(statuses)")
            #expect(try await LedgerAudit.count("order_refunds", server.database) == 10)
            #expect(try await Self.escrow(server, seller) == 695)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "a refund the provider fails is shown failed and its money goes back to the seller's escrow",
        arguments: TestEngines.all)
    func failedRefund(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server, card: "4000 0000 0000 5126")
            let made = try await Self.refund(server, order.id, 4_000, token: seller.token).decode(RefundResponse.self)
            #expect(made.status == .pending)
            #expect(try await Self.escrow(server, seller) == 6_695, "held away from the seller while pending")
            let pendingView = try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(
                OrderResponse.self)
            #expect(pendingView.refundable == 6_695 && pendingView.refunds?.first?.status == .pending)
            try await Self.failAtProvider(server, refundId: made.id)

            let sweeper = server.services.pendingOrderSweeper
            #expect(await sweeper.sweepRefunds() == 0, "too recent for the sweeper")
            server.clock.advance(seconds: 180)
            #expect(await sweeper.sweepRefunds() == 1)
            let failed = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self
            ).refunds
            #expect(failed.first?.status == .failed && failed.first?.failureMessage?.isEmpty == false)
            #expect(try await Self.escrow(server, seller) == 10_695)
            #expect(try await OrderMoneyTests.balance(server, "sys:refund_clearing:EUR") == 0)
            let after = try await server.client.get("/orders/\(order.id)", token: seller.token).decode(
                OrderResponse.self)
            #expect(after.refunded == 0 && after.refundable == 10_695)
            #expect(await sweeper.sweepRefunds() == 0, "a settled refund is settled once")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "a refund pending when the order completes fails back to the seller's payable, not escrow",
        arguments: TestEngines.all)
    func pendingAcrossRelease(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server, card: "4000 0000 0000 5126")
            let made = try await Self.refund(server, order.id, 4_000, token: seller.token).decode(RefundResponse.self)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
            #expect(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 0, payable: 6_695, currency: "EUR"), "the release leaves the refund out")
            try await Self.failAtProvider(server, refundId: made.id)
            server.clock.advance(seconds: 180)
            #expect(await server.services.pendingOrderSweeper.sweepRefunds() == 1)
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 0, payable: 10_695, currency: "EUR"))
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "after release only an operator refunds, with their PIN, from the seller's payable", arguments: TestEngines.all)
    func operatorRefund(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
            #expect(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)
            let late = try await Self.refund(server, order.id, 1_000, token: seller.token)
            #expect(late.status == 409 && late.errorCode == "invalid_state")

            let admin = try await server.signup()
            _ = try await server.services.operators.setOperator(phone: admin.phone, true)
            func operatorRefund(_ amount: Int64, pin: String, key: String, token: String) async throws -> APIResponse {
                try await server.client.post(
                    "/operator/orders/\(order.id)/refunds",
                    OperatorRefundRequest(amount: amount, reason: "Never arrived", pin: pin), token: token,
                    headers: [("Idempotency-Key", key)])
            }
            let notOperator = try await operatorRefund(1_000, pin: "4827", key: "a", token: seller.token)
            #expect(notOperator.status == 403 && notOperator.errorCode == "not_operator")
            let wrongPin = try await operatorRefund(1_000, pin: "1111", key: "b", token: admin.token)
            #expect(wrongPin.status == 401)
            let done = try await operatorRefund(4_000, pin: "4827", key: "c", token: admin.token)
            #expect(done.status == 201, "\(done.text)")
            #expect(try done.decode(RefundResponse.self).requestedBy == "operator")
            #expect(
                try await server.client.get("/user/proceeds", token: seller.token).decode(ProceedsResponse.self)
                    == ProceedsResponse(held: 0, payable: 6_695, currency: "EUR"))
            let actions = try await server.services.operators.actions()
            #expect(actions.first?.action == "refund_order" && actions.first?.targetUserId == seller.userId)

            _ = try await server.services.operators.setOperator(phone: seller.phone, true)
            let own = try await operatorRefund(1_000, pin: "4827", key: "d", token: seller.token)
            #expect(own.status == 403 && own.errorCode == "own_account")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("the audit catches refunds beyond the order, booked twice, or failed without the money back")
    func auditCatchesBrokenRefunds() async throws {
        try await LiveServer.run(.sqlite) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server)
            #expect(try await Self.refund(server, order.id, 1_000, token: seller.token).status == 201)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
            #expect(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)
            let (failingSeller, _, failing) = try await Self.paidOrder(server, card: "4000 0000 0000 5126")
            let failed = try await Self.refund(server, failing.id, 2_000, token: failingSeller.token)
            #expect(failed.status == 201)
            try await Self.failAtProvider(server, refundId: try failed.decode(RefundResponse.self).id)
            server.clock.advance(seconds: 180)
            #expect(await server.services.pendingOrderSweeper.sweepRefunds() == 1)
            let now = server.services.clock.nowMillis()
            try await LedgerAudit.check(server.database, now: now)

            let breaches: [(String, [String])] = [
                ("refunds_within_orders", ["UPDATE orders SET refunded = refunded + 1 WHERE id = '\(order.id)'"]),
                (
                    "refunds_have_entries",
                    AuditTests.duplicateEntry(AuditTests.entryOf("order_refund_settled"))
                ),
                ("refunds_have_entries", AuditTests.deleteEntry(AuditTests.entryOf("order_refund_failed"))),
                (
                    "refunds_have_entries",
                    [
                        "UPDATE order_refunds SET amount = amount + 1, from_escrow = from_escrow + 1 WHERE order_id = '\(order.id)'"
                    ]
                ),
                (
                    "entries_have_owners",
                    ["UPDATE order_refunds SET status = 'pending' WHERE order_id = '\(failing.id)'"]
                ),
            ]
            for (check, statements) in breaches {
                let report = try await AuditTests.audit(statements, on: server.database, now: now)
                #expect(report.failures.map(\.name).contains(check), "\(check): \(report.failures.map(\.name))")
            }
        }
    }

    @Test(
        "after release, what the seller's payable lacks we pay and record as the seller's debt",
        arguments: TestEngines.all)
    func shortPayableBecomesDebt(engine: DatabaseEngine) async throws {
        // The books carry a payout no service writes yet (there are no payouts; it is written as the
        // nearest kind, money back to the funding account), so the end-of-test audit runs here
        // without the check that every entry has an owner.
        try await LiveServer.run(engine, audit: false) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server)
            #expect(try await server.client.post("/orders/\(order.id)/ship", token: seller.token).status == 200)
            #expect(try await server.client.post("/orders/\(order.id)/complete", token: buyer.token).status == 200)
            // The seller was paid out most of it: 695 is left payable.
            let now = server.services.clock.nowMillis()
            try await server.database.transaction { sql in
                try await sql.ledger.post(
                    .transfer(
                        kind: .fundingReversal, reference: "payout_test", amount: 10_000,
                        from: LedgerRepository.accountId(userId: seller.userId, kind: .payable, currency: "EUR"),
                        to: SystemAccount.funding("EUR")), now: now)
            }
            let admin = try await server.signup()
            _ = try await server.services.operators.setOperator(phone: admin.phone, true)
            let refund = try await server.client.post(
                "/operator/orders/\(order.id)/refunds",
                OperatorRefundRequest(amount: 4_000, reason: "Never arrived", pin: "4827"), token: admin.token,
                headers: [("Idempotency-Key", "debt")])
            #expect(refund.status == 201, "\(refund.text)")
            #expect(try await OrderMoneyTests.balance(server, "acct:\(seller.userId):payable:EUR") == 0)
            #expect(try await OrderMoneyTests.balance(server, "acct:\(seller.userId):receivable:EUR") == -3_305)
            try await LedgerAudit.check(
                server.database, now: server.services.clock.nowMillis(),
                checks: LedgerAuditCheck.all.filter { $0.name != "entries_have_owners" })
        }
    }

    @Test(
        "the simulator's controls end a pending refund, and the order's refund follows at once",
        arguments: TestEngines.all)
    func simulatorControls(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server, card: "4000 0000 0000 5126")
            let made = try await Self.refund(server, order.id, 2_500, token: seller.token).decode(RefundResponse.self)
            let providerId = try await Self.providerRefundId(server, made.id)
            let failed = try await server.client.post("/sim/refunds/\(providerId)/fail")
            #expect(failed.status == 200, "\(failed.text)")
            #expect(try failed.decode(SimulatedRefund.self).status == "failed")
            let listed = try await server.client.get("/orders/\(order.id)/refunds", token: buyer.token).decode(
                RefundList.self)
            #expect(listed.refunds.map(\.status) == [.failed])
            #expect(try await Self.escrow(server, seller) == 10_695)
            let again = try await server.client.post("/sim/refunds/\(providerId)/succeed")
            #expect(again.status == 409 && again.errorCode == "refund_not_pending")
            let unknown = try await server.client.post("/sim/refunds/re_nothing/succeed")
            #expect(unknown.status == 404 && unknown.errorCode == "refund_not_found")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("the SDK refunds an order once per key and lists its refunds for both sides")
    func sdk() async throws {
        try await LiveServer.run(.sqlite) { server in
            let (seller, buyer, order) = try await Self.paidOrder(server)
            let sellerAPI = server.client.sdk(token: seller.token)
            let request = CreateRefundRequest(amount: 1_500, reason: "Missing a screw")
            let first = try await sellerAPI.refundOrder(id: order.id, request, idempotencyKey: "sdk-1")
            let again = try await sellerAPI.refundOrder(id: order.id, request, idempotencyKey: "sdk-1")
            #expect(first.id == again.id && first.status == .succeeded)
            let seen = try await server.client.sdk(token: buyer.token).refunds(orderId: order.id)
            #expect(seen.map(\.id) == [first.id] && seen.first?.reason == "Missing a screw")
        }
    }
}
