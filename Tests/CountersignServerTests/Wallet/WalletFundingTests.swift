import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `POST /wallet/fundings`: money in by card or bank through the provider, credited exactly once.
@Suite("Wallet fundings")
struct WalletFundingTests {
    static func create(
        _ server: LiveServer, _ user: TestUser, _ request: CreateFundingRequest, key: String = UUID().uuidString
    ) async throws -> APIResponse {
        try await server.client.post(
            "/wallet/fundings", request, token: user.token, headers: [("Idempotency-Key", key)])
    }

    static func ledgerEntries(_ server: LiveServer, _ fundingId: String) async throws -> Int64 {
        try await server.database.read { sql in
            try await sql.first(
                "SELECT COUNT(*) AS n FROM ledger_transactions WHERE reference = $1", [.text(fundingId)]
            )?.int("n") ?? 0
        }
    }

    @Test("a card funding credits the wallet in its currency once; a retry replays it", arguments: TestEngines.all)
    func card(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let card = try await OrderPaymentTests.card(server, user, "4242424242424242")
            let request = CreateFundingRequest(amount: 5_000, currency: "EUR", method: .card, paymentMethodId: card)
            let first = try await Self.create(server, user, request, key: "add-1")
            #expect(first.status == 201)
            let funding = try first.decode(WalletFunding.self)
            #expect(funding.status == "succeeded" && funding.balance == 5_000 && funding.currency == "EUR")

            let again = try await Self.create(server, user, request, key: "add-1")
            #expect(again.status == 200 && again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try again.decode(WalletFunding.self).fundingId == funding.fundingId)
            let other = try await Self.create(
                server, user,
                CreateFundingRequest(amount: 6_000, currency: "EUR", method: .card, paymentMethodId: card),
                key: "add-1")
            #expect(other.errorCode == "idempotency_key_reused")

            let wallet = try await server.wallet(user)
            #expect(wallet.balance == 0 && wallet.wallet("EUR")?.balance == 5_000, "nothing converts")
            #expect(try await Self.ledgerEntries(server, funding.fundingId) == 1)
            let history = try await server.client.get("/user/transactions", token: user.token)
                .decode(TransactionPage.self).transactions
            #expect(history.map(\.transactionId) == [funding.fundingId])
            #expect(history.first?.type == "funding" && history.first?.status == "completed")
        }
    }

    @Test("50 parallel copies of one request make one funding and credit once", arguments: TestEngines.all)
    func parallelCopies(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let card = try await OrderPaymentTests.card(server, user, "4242424242424242")
            let request = CreateFundingRequest(amount: 1_000, currency: "NGN", method: .card, paymentMethodId: card)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await Self.create(server, user, request, key: "same").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { [200, 201, 409].contains($0) }, "\(statuses)")
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(try await server.wallet(user).balance == 1_000)
        }
    }

    @Test(
        "iDEAL waits for the bank; the webhook, a poll and the sweeper together credit once", arguments: TestEngines.all
    )
    func idealOnce(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let started = try await Self.create(
                server, user,
                CreateFundingRequest(
                    amount: 2_500, currency: "EUR", method: .ideal, returnURL: "https://app.example/add-money"))
            #expect(started.status == 201)
            let funding = try started.decode(WalletFunding.self)
            #expect(funding.status == "pending" && funding.paymentStatus == "requires_action")
            let redirect = try #require(funding.redirectURL)
            let page = try #require(URLComponents(string: redirect)?.path)
            let intentId = String(page.split(separator: "/").last ?? "")
            let pending = try await server.client.get("/user/transactions", token: user.token)
                .decode(TransactionPage.self).transactions
            #expect(pending.first?.status == "pending" && pending.first?.type == "funding")
            #expect(try await server.wallet(user).wallet("EUR")?.balance == 0)

            try await PaymentWebhookTests.authorize(server, page: page)
            let event = PaymentWebhookTests.event(
                "payment_intent.succeeded", intentId: intentId, orderId: funding.fundingId)
            #expect(try await PaymentWebhookTests.send(server, event).status == 200)
            #expect(try await PaymentWebhookTests.send(server, event).status == 200, "a replayed event is harmless")
            let polled = try await server.client.get("/wallet/fundings/\(funding.fundingId)", token: user.token)
                .decode(WalletFunding.self)
            #expect(polled.status == "succeeded" && polled.balance == 2_500)
            server.clock.advance(seconds: 3_600 * 2)
            #expect(await server.services.pendingOrderSweeper.sweepFundings() == 0, "nothing left pending")
            #expect(try await server.wallet(user).wallet("EUR")?.balance == 2_500)
            #expect(try await Self.ledgerEntries(server, funding.fundingId) == 1)

            // Nobody else sees it.
            let stranger = try await server.signup()
            let hidden = try await server.client.get("/wallet/fundings/\(funding.fundingId)", token: stranger.token)
            #expect(hidden.errorCode == "funding_not_found")
        }
    }

    @Test("a declined card and an abandoned bank payment end with nothing credited", arguments: TestEngines.all)
    func failures(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let declined = try await OrderPaymentTests.card(server, user, "4000000000000002")
            let refused = try await Self.create(
                server, user,
                CreateFundingRequest(amount: 1_000, currency: "EUR", method: .card, paymentMethodId: declined)
            ).decode(WalletFunding.self)
            #expect(refused.status == "failed" && refused.error?.code == "card_declined")

            let abandoned = try await Self.create(
                server, user,
                CreateFundingRequest(
                    amount: 1_000, currency: "EUR", method: .bancontact, returnURL: "https://app.example/add-money")
            ).decode(WalletFunding.self)
            #expect(abandoned.status == "pending")
            server.clock.advance(seconds: 60)
            #expect(await server.services.pendingOrderSweeper.sweepFundings() == 0, "too young to sweep")
            server.clock.advance(seconds: 3_600)
            #expect(await server.services.pendingOrderSweeper.sweepFundings() == 1)
            let ended = try await server.client.get("/wallet/fundings/\(abandoned.fundingId)", token: user.token)
                .decode(WalletFunding.self)
            #expect(ended.status == "canceled" && ended.error?.code == "payment_canceled")
            let history = try await server.client.get("/user/transactions", token: user.token)
                .decode(TransactionPage.self).transactions
            #expect(history.map(\.status) == ["failed", "failed"])
            #expect(try await server.wallet(user).wallets.map(\.balance) == [0, 0])
        }
    }

    @Test(
        "money added never takes the wallet over its maximum balance, fundings still pending counted; parallel too",
        arguments: TestEngines.all)
    func maximumBalance(engine: DatabaseEngine) async throws {
        try await LiveServer.run(
            engine,
            configure: {
                $0.limitTiers = LimitTiers(
                    tiers: ["capped": ["EUR": [.maxBalance: 50_000]]], defaultTier: "capped", raiseDelaySeconds: 0)
            }
        ) { server in
            let user = try await server.signup()
            let card = try await OrderPaymentTests.card(server, user, "4242424242424242")
            let paid = try await Self.create(
                server, user,
                CreateFundingRequest(amount: 30_000, currency: "EUR", method: .card, paymentMethodId: card))
            #expect(try paid.decode(WalletFunding.self).status == "succeeded")
            // A bank payment the payer has not finished yet holds its share of the room.
            let pending = try await Self.create(
                server, user,
                CreateFundingRequest(
                    amount: 15_000, currency: "EUR", method: .ideal, returnURL: "https://app.example/add-money"))
            #expect(try pending.decode(WalletFunding.self).status == "pending")

            let over = try await Self.create(
                server, user, CreateFundingRequest(amount: 5_001, currency: "EUR", method: .card, paymentMethodId: card)
            )
            #expect(over.status == 422 && over.errorCode == "limit_exceeded", "\(over.text)")
            let refusal = try over.decode(ErrorResponse.self).error.limit
            #expect(refusal?.kind == .maxBalance && refusal?.remaining == 5_000 && refusal?.limit == 50_000)
            #expect(over.text.contains("€50.00") && over.text.contains("€500.00"), "the room and the cap, in euros")

            // Ten parallel fundings of what is left: one fits, nine are refused, nothing is charged for them.
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await Self.create(
                            server, user,
                            CreateFundingRequest(amount: 5_000, currency: "EUR", method: .card, paymentMethodId: card))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.status == 201 }.count == 1)
            #expect(results.filter { $0.errorCode == "limit_exceeded" }.count == 9)
            #expect(try await server.wallet(user).wallet("EUR")?.balance == 35_000)
            let fundings = try await server.database.read { sql in
                try await sql.first(
                    "SELECT COUNT(*) AS n FROM wallet_fundings WHERE user_id = $1", [.text(user.userId)])?
                    .int("n")
            }
            #expect(fundings == 3, "a refused funding writes nothing")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("bad requests are refused with a code and nothing is written", arguments: TestEngines.all)
    func refusals(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let url = "https://app.example/add-money"
            let cases: [(CreateFundingRequest, String)] = [
                (
                    CreateFundingRequest(amount: 1_000, currency: "USD", method: .ideal, returnURL: url),
                    "unsupported_currency"
                ),
                (
                    CreateFundingRequest(amount: 1_000, currency: "NGN", method: .ideal, returnURL: url),
                    "payment_method_not_offered"
                ),
                (
                    CreateFundingRequest(amount: 99, currency: "EUR", method: .ideal, returnURL: url),
                    "funding_below_minimum"
                ),
                (
                    CreateFundingRequest(amount: 0, currency: "EUR", method: .ideal, returnURL: url),
                    "funding_below_minimum"
                ),
                (
                    CreateFundingRequest(amount: -5, currency: "EUR", method: .ideal, returnURL: url),
                    "funding_below_minimum"
                ),
                (
                    CreateFundingRequest(amount: Int64.max, currency: "EUR", method: .ideal, returnURL: url),
                    "funding_above_maximum"
                ),
                (CreateFundingRequest(amount: 1_000, currency: "EUR", method: .card), "payment_method_required"),
                (
                    CreateFundingRequest(
                        amount: 1_000, currency: "EUR", method: .ideal, returnURL: "javascript:alert(1)"),
                    "return_url_not_allowed"
                ),
            ]
            for (request, code) in cases {
                #expect(try await Self.create(server, user, request).errorCode == code, "\(request)")
            }
            let keyless = try await server.client.post(
                "/wallet/fundings",
                CreateFundingRequest(amount: 1_000, currency: "EUR", method: .ideal, returnURL: url),
                token: user.token)
            #expect(keyless.errorCode == "missing_idempotency_key")
            for id in ["%00", "wf_%0A", String(repeating: "w", count: 5_000), "..%2F..%2Fuser"] {
                let unknown = try await server.client.get("/wallet/fundings/\(id)", token: user.token)
                #expect(unknown.status == 404 && unknown.errorCode == "funding_not_found", "\(id): \(unknown.text)")
            }
            // Another user's saved card: the provider refuses, the funding ends failed, nothing credited.
            let other = try await server.signup()
            let theirs = try await OrderPaymentTests.card(server, other, "4242424242424242")
            let stolen = try await Self.create(
                server, user,
                CreateFundingRequest(amount: 1_000, currency: "EUR", method: .card, paymentMethodId: theirs))
            #expect(stolen.status == 422 || stolen.status == 404, "\(stolen.status)")
            #expect(try await server.wallet(user).wallets.map(\.balance) == [0, 0])
            let rows = try await server.database.read { sql in
                try await sql.first("SELECT COUNT(*) AS n FROM wallet_fundings WHERE status <> 'failed'")?.int("n")
            }
            #expect(rows == 0)
        }
    }
}
