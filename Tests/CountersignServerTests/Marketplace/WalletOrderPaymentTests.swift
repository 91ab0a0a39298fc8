import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Marketplace orders paid from the buyer's EUR wallet: the passkey signs the order's total and
/// seller (or the PIN pays), the debit and the seller's escrow commit together, once.
@Suite("Orders paid from the wallet")
struct WalletOrderPaymentTests {
    /// A `NEW` pickup order (10,000, no fee) to be paid from a buyer's EUR wallet holding `euros`.
    static func walletOrder(_ server: LiveServer, euros: Int64 = 25_000) async throws -> (
        seller: TestUser, buyer: TestUser, order: OrderResponse
    ) {
        let seller = try await server.signup()
        let buyer = try await server.fundedUser(balance: 100_000)
        if euros > 0 {
            _ = try await server.services.wallets.fund(
                phone: buyer.phone, amount: euros, currency: "EUR", reference: nil)
        }
        let product = try await server.client.post("/products", MarketplaceTests.product, token: seller.token).decode(
            ProductResponse.self)
        let bid = try await server.client.post("/products/\(product.id)/buy-now", token: buyer.token).decode(
            BidResponse.self)
        let order = try await server.client.post(
            "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .wallet),
            token: buyer.token
        ).decode(OrderResponse.self)
        return (seller, buyer, order)
    }

    /// Another `NEW` pickup wallet order of `buyer`'s, of a new product of `seller`'s at `price`.
    static func anotherOrder(_ server: LiveServer, seller: TestUser, buyer: TestUser, price: Int64 = 10_000)
        async throws -> OrderResponse
    {
        var listing = MarketplaceTests.product
        listing.askingPrice = price
        let product = try await server.client.post("/products", listing, token: seller.token).decode(
            ProductResponse.self)
        let bid = try await server.client.post("/products/\(product.id)/buy-now", token: buyer.token).decode(
            BidResponse.self)
        return try await server.client.post(
            "/orders", CheckoutTotalsRequest(bidId: bid.id, delivery: "pickup", paymentMethod: .wallet),
            token: buyer.token
        ).decode(OrderResponse.self)
    }

    static func euroWallet(_ server: LiveServer, _ user: TestUser) async throws -> Int64 {
        try await OrderMoneyTests.balance(server, "acct:\(user.userId):wallet:EUR")
    }

    static func pay(_ server: LiveServer, _ buyer: TestUser, _ order: String, token: String? = nil, pin: String? = nil)
        async throws -> APIResponse
    {
        try await server.client.post(
            "/orders/\(order)/pay", PayOrderRequest(verificationToken: token, pin: pin), token: buyer.token)
    }

    /// Options → the device signs → verify: a token for exactly this order.
    static func passkeyToken(_ server: LiveServer, _ buyer: TestUser, _ order: String) async throws -> String {
        let options = try await server.client.post("/orders/\(order)/pay/options", token: buyer.token)
        try #require(options.status == 200, "options: \(options.text)")
        let decoded = try options.decode(AuthenticationOptionsResponse.self)
        let verify = try await server.client.post(
            "/biometric/auth/verify",
            try server.assertion(try #require(buyer.device), challenge: decoded.challenge), token: buyer.token)
        try #require(verify.status == 200, "verify: \(verify.text)")
        return try #require(try verify.decode(AuthenticationVerifyResponse.self).verificationToken)
    }

    @Test(
        "the passkey signs the order's total and seller; wallet to escrow in one step, no fee",
        arguments: TestEngines.all)
    func passkey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.walletOrder(server)
            #expect(order.totals.paymentFee == 0 && order.totals.total == 10_000)
            let options = try await server.client.post("/orders/\(order.id)/pay/options", token: buyer.token).decode(
                AuthenticationOptionsResponse.self)
            #expect(options.transaction.amount == 10_000 && options.transaction.currency == "EUR")
            #expect(
                options.transaction.kind == "marketplace_order" && options.transaction.supplierSlug == seller.userId)
            #expect(options.transaction.productCode == order.id)

            let token = try await Self.passkeyToken(server, buyer, order.id)
            let paid = try await Self.pay(server, buyer, order.id, token: token)
            #expect(paid.status == 200, "\(paid.text)")
            #expect(try paid.decode(OrderPaymentResponse.self).orderStatus == .paid)
            #expect(try await Self.euroWallet(server, buyer) == 15_000)
            #expect(try await RefundTests.escrow(server, seller) == 10_000)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 1)
            let again = try await Self.pay(server, buyer, order.id, token: token)
            #expect(again.status == 409 && again.errorCode == "order_paid")
            #expect(try await Self.euroWallet(server, buyer) == 15_000)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("a token signed for another order pays nothing", arguments: TestEngines.all)
    func otherOrdersToken(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (_, buyer, order) = try await Self.walletOrder(server)
            let airtime = try await server.authorize(buyer, amount: 10_000)
            let refused = try await Self.pay(server, buyer, order.id, token: airtime)
            #expect(refused.errorCode == "intent_mismatch", "\(refused.text)")
            #expect(try await Self.euroWallet(server, buyer) == 25_000)
            let none = try await Self.pay(server, buyer, order.id)
            #expect(none.status == 400 && none.errorCode == "authorization_required")
        }
    }

    @Test("the PIN pays; a wrong PIN pays nothing", arguments: TestEngines.all)
    func pin(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.walletOrder(server)
            let wrong = try await Self.pay(server, buyer, order.id, pin: "1111")
            #expect(wrong.status == 401, "\(wrong.text)")
            #expect(try await Self.euroWallet(server, buyer) == 25_000)
            let paid = try await Self.pay(server, buyer, order.id, pin: buyer.pin)
            #expect(paid.status == 200, "\(paid.text)")
            #expect(try await Self.euroWallet(server, buyer) == 15_000)
            #expect(try await RefundTests.escrow(server, seller) == 10_000)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "too little in the wallet: refused before the gesture and at pay, nothing written", arguments: TestEngines.all)
    func insufficientFunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (_, buyer, order) = try await Self.walletOrder(server, euros: 9_999)
            let options = try await server.client.post("/orders/\(order.id)/pay/options", token: buyer.token)
            #expect(options.status == 422 && options.errorCode == "insufficient_funds", "\(options.text)")
            let paid = try await Self.pay(server, buyer, order.id, pin: buyer.pin)
            #expect(paid.status == 422 && paid.errorCode == "insufficient_funds", "\(paid.text)")
            #expect(try await Self.euroWallet(server, buyer) == 9_999)
            let now = try await server.client.get("/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self)
            #expect(now.status == .new)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 0)
        }
    }

    @Test("20 parallel payments of one order pay it once", arguments: TestEngines.all)
    func parallel(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.walletOrder(server, euros: 200_000)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await Self.pay(server, buyer, order.id, pin: buyer.pin).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            // The others: paid already, or their PIN check waited behind five others (`pin_checks_busy`).
            #expect(statuses.allSatisfy { [200, 409, 429].contains($0) }, "\(statuses)")
            #expect(try await Self.euroWallet(server, buyer) == 190_000)
            #expect(try await RefundTests.escrow(server, seller) == 10_000)
            #expect(try await OrderMoneyTests.bookings(server, order: order.id) == 1)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("wallet payment challenges count towards the per-account challenge limit", arguments: TestEngines.all)
    func challengesLimited(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: RateLimitTests.limited(["challenge-account=2/60"])) { server in
            // fundedUser's registration took one challenge.
            let (_, buyer, order) = try await Self.walletOrder(server)
            let options = { try await server.client.post("/orders/\(order.id)/pay/options", token: buyer.token) }
            #expect(try await options().status == 200)
            let third = try await options()
            #expect(third.status == 429 && third.errorCode == "rate_limited", "\(third.text)")
        }
    }

    @Test("a refund of a wallet-paid order goes back to the wallet at once", arguments: TestEngines.all)
    func refund(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (seller, buyer, order) = try await Self.walletOrder(server)
            #expect(try await Self.pay(server, buyer, order.id, pin: buyer.pin).status == 200)
            let made = try await RefundTests.refund(server, order.id, 3_000, token: seller.token)
            #expect(made.status == 201, "\(made.text)")
            #expect(try made.decode(RefundResponse.self).status == .succeeded)
            #expect(try await Self.euroWallet(server, buyer) == 18_000)
            #expect(try await RefundTests.escrow(server, seller) == 7_000)
            #expect(try await OrderMoneyTests.balance(server, "sys:refund_clearing:EUR") == 0)
            // The buyer's history: the payment out and the refund back, each naming the seller and the product.
            let lines = try await server.client.get("/user/transactions?currency=EUR", token: buyer.token)
                .decode(TransactionPage.self).transactions
            let paid = try #require(lines.first { $0.type == "order_payment" }, "\(lines)")
            let back = try #require(lines.first { $0.type == "order_refund" }, "\(lines)")
            #expect(paid.amount == 10_000 && paid.authorizedBy == "pin" && paid.reference == order.id)
            #expect(back.amount == 3_000 && back.reference == order.id && back.status == "completed")
            #expect(paid.counterpartyName == "Ada" && back.counterpartyName == "Ada")
            #expect(paid.note == MarketplaceTests.product.title && back.note == MarketplaceTests.product.title)
            try await LedgerAudit.check(server.database)
        }
    }

    /// The PIN alone pays €50 at once, €100 in all.
    static func euroAllowance(_ configuration: inout ServerConfiguration) {
        configuration.pinAllowance = PinAllowance(rules: [
            "EUR": .init(maxAmount: 5_000, cumulativeAmount: 10_000, maxPayments: 5)
        ])
        configuration.userVerification = "preferred"
    }

    /// €200 at once, €250 a day.
    static func euroTiers(_ configuration: inout ServerConfiguration) {
        configuration.limitTiers = LimitTiers(
            tiers: ["standard": ["EUR": [.perPayment: 20_000, .daily: 25_000]]], defaultTier: "standard",
            raiseDelaySeconds: 86_400)
    }

    @Test(
        "the PIN pays an order only within its allowance; beyond it the passkey, refused before the PIN",
        arguments: TestEngines.all)
    func pinAllowance(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.euroAllowance) { server in
            let (seller, buyer, order) = try await Self.walletOrder(server)
            let options = try await server.client.post("/orders/\(order.id)/pay/options", token: buyer.token)
                .decode(AuthenticationOptionsResponse.self)
            #expect(options.pinAllowed == false)
            // A wrong PIN is not judged either: nothing counts towards the lock.
            for pin in ["1111", buyer.pin] {
                let refused = try await Self.pay(server, buyer, order.id, pin: pin)
                #expect(
                    refused.status == 403 && refused.errorCode == "strong_authentication_required", "\(refused.text)")
            }
            #expect(try await Self.euroWallet(server, buyer) == 25_000)
            let token = try await Self.passkeyToken(server, buyer, order.id)
            #expect(try await Self.pay(server, buyer, order.id, token: token).status == 200)

            // €50 fits the allowance: the PIN pays it, and counts it.
            let small = try await Self.anotherOrder(server, seller: seller, buyer: buyer, price: 5_000)
            #expect(try await Self.pay(server, buyer, small.id, pin: buyer.pin).status == 200)
            let count = try await server.database.read { sql in
                try await sql.first(
                    "SELECT payments, total FROM pin_allowances WHERE user_id = $1 AND currency = 'EUR'",
                    [.text(buyer.userId)])
            }
            #expect(try count?.int("payments") == 1 && count?.int("total") == 5_000)
            #expect(try await Self.euroWallet(server, buyer) == 10_000)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "spending limits bind order payments: said at the options, and 6 parallel payments never pass the day's",
        arguments: TestEngines.all)
    func spendingLimits(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.euroTiers) { server in
            let (seller, buyer, first) = try await Self.walletOrder(server, euros: 200_000)
            let big = try await Self.anotherOrder(server, seller: seller, buyer: buyer, price: 20_001)
            let options = try await server.client.post("/orders/\(big.id)/pay/options", token: buyer.token)
            #expect(options.status == 422 && options.errorCode == "limit_exceeded", "\(options.text)")
            let refusal = try options.decode(ErrorResponse.self).error.limit
            #expect(refusal?.kind == .perPayment && refusal?.limit == 20_000)
            var orders = [first]
            for _ in 0..<5 { orders.append(try await Self.anotherOrder(server, seller: seller, buyer: buyer)) }
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for order in orders {
                    group.addTask {
                        let paid = try await Self.pay(server, buyer, order.id, pin: buyer.pin)
                        return (paid.status, paid.errorCode)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            // €250 a day: two orders of €100 fit, a third does not; the rest were refused by the
            // limit or waited behind other PIN checks.
            #expect(statuses.filter { $0.0 == 200 }.count == 2, "\(statuses)")
            #expect(
                statuses.allSatisfy { $0.0 == 200 || $0.1 == "limit_exceeded" || $0.1 == "pin_checks_busy" },
                "\(statuses)")
            #expect(try await Self.euroWallet(server, buyer) == 180_000)
            try await LedgerAudit.check(server.database)
        }
    }
}
