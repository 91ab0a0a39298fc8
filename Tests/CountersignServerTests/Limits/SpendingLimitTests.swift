import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Spending limits per account and currency, from the operator's tiers: seen and lowered by the
/// user, raised only with a passkey and after a delay, enforced in the debit's transaction.
@Suite("Spending limits")
struct SpendingLimitTests {
    /// `standard`: ₦30 at once, ₦50 a day, ₦2,000 in the wallet; `tier1`: ₦10 a day.
    static func tiers(_ configuration: inout ServerConfiguration) {
        configuration.limitTiers = LimitTiers(
            tiers: [
                "standard": ["NGN": [.perPayment: 3_000, .daily: 5_000, .maxBalance: 200_000]],
                "tier1": ["NGN": [.daily: 1_000]],
            ], defaultTier: "standard", raiseDelaySeconds: 86_400)
    }

    static func limits(_ server: LiveServer, _ user: TestUser) async throws -> [SpendingLimitKind: SpendingLimit] {
        let response = try await server.client.get("/user/limits", token: user.token)
        try #require(response.status == 200, "\(response.text)")
        let limits = try response.decode(LimitsResponse.self)
        let naira = try #require(limits.currencies.first { $0.currency == "NGN" })
        return Dictionary(uniqueKeysWithValues: naira.limits.map { ($0.kind, $0) })
    }

    static func set(
        _ server: LiveServer, _ user: TestUser, _ kind: SpendingLimitKind, _ amount: Int64,
        stepUp: AuthenticationResponseJSON? = nil
    ) async throws -> APIResponse {
        try await server.client.send(
            .PUT, "/user/limits", json: SetLimitRequest(currency: "NGN", kind: kind, amount: amount, stepUp: stepUp),
            token: user.token)
    }

    @Test("the user lowers a limit at once; a raise needs the passkey and waits its delay", arguments: TestEngines.all)
    func lowerAndRaise(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.tiers) { server in
            let user = try await server.fundedUser()
            var limits = try await Self.limits(server, user)
            #expect(limits[.daily]?.limit == 5_000 && limits[.daily]?.remaining == 5_000)
            #expect(try await server.topUp(user, amount: 2_000, pin: user.pin).status == 200)
            limits = try await Self.limits(server, user)
            #expect(limits[.daily]?.used == 2_000 && limits[.daily]?.remaining == 3_000)

            // A step-up sent with a lowering is checked all the same: a forged one changes nothing.
            var forged = try await StepUpTests.stepUpAssertion(server, user)
            forged.response.signature = "AA"
            let refused = try await Self.set(server, user, .daily, 2_500, stepUp: forged)
            #expect((400..<500).contains(refused.status), "\(refused.text)")
            #expect(try await Self.limits(server, user)[.daily]?.limit == 5_000)
            #expect(try await Self.set(server, user, .daily, 2_500).status == 200)
            let over = try await server.topUp(user, amount: 1_000, pin: user.pin)
            #expect(over.status == 422 && over.errorCode == "limit_exceeded", "\(over.text)")
            let refusal = try over.decode(ErrorResponse.self).error.limit
            #expect(refusal == LimitRefusal(currency: "NGN", kind: .daily, limit: 2_500, remaining: 500))
            // Before the gesture too.
            let options = try await server.authOptions(user, amount: 1_000)
            #expect(options.status == 422 && options.errorCode == "limit_exceeded", "\(options.text)")

            let unproven = try await Self.set(server, user, .daily, 5_000)
            #expect(unproven.status == 401 && unproven.errorCode == "step_up_required", "\(unproven.text)")
            let aboveTier = try await Self.set(server, user, .daily, 5_001)
            #expect(aboveTier.status == 422 && aboveTier.errorCode == "limit_above_tier", "\(aboveTier.text)")
            let raised = try await Self.set(
                server, user, .daily, 5_000, stepUp: try await StepUpTests.stepUpAssertion(server, user))
            #expect(raised.status == 200, "\(raised.text)")
            limits = try await Self.limits(server, user)
            #expect(limits[.daily]?.limit == 2_500 && limits[.daily]?.pending?.amount == 5_000)
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin).status == 422)

            server.clock.advance(seconds: 86_400)
            limits = try await Self.limits(server, user)
            #expect(limits[.daily]?.limit == 5_000 && limits[.daily]?.pending == nil)
            // A day later the first top-up is out of the window too.
            #expect(try await server.topUp(user, amount: 3_000, pin: user.pin).status == 200)
            let perPayment = try await server.topUp(user, amount: 3_001, pin: user.pin)
            #expect(try perPayment.decode(ErrorResponse.self).error.limit?.kind == .perPayment)
        }
    }

    @Test(
        "a token over a limit reached since it was issued is refused by the debit and left unspent",
        arguments: TestEngines.all)
    func tokenOverLimitSinceIssued(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.tiers) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user, amount: 2_000)
            #expect(try await server.topUp(user, amount: 2_000, pin: user.pin).status == 200)
            #expect(try await server.topUp(user, amount: 2_000, pin: user.pin).status == 200)
            let spentTokens = try await LedgerAudit.count("consumed_tokens", server.database)

            // ₦40 of ₦50 paid today: the token's ₦20 no longer fits.
            let over = try await server.topUp(user, amount: 2_000, token: token)
            #expect(over.status == 422 && over.errorCode == "limit_exceeded", "\(over.text)")
            let refusal = try over.decode(ErrorResponse.self).error.limit
            #expect(refusal == LimitRefusal(currency: "NGN", kind: .daily, limit: 5_000, remaining: 1_000))
            #expect(try await server.wallet(user).balance == 100_000 - 4_000)
            #expect(try await LedgerAudit.count("consumed_tokens", server.database) == spentTokens)
        }
    }

    @Test("50 parallel top-ups never pass the daily limit together", arguments: TestEngines.all)
    func parallelTopUps(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.tiers) { server in
            let user = try await server.fundedUser()
            let statuses = try await server.parallelPinTopUps(user, count: 50, amount: 300)
            // ₦50 a day in ₦3 top-ups: 16 fit (₦48), the rest are refused.
            #expect(statuses.filter { $0.0 == 200 }.count == 16, "\(statuses)")
            #expect(statuses.filter { $0.0 == 422 && $0.1 == "limit_exceeded" }.count == 34)
            #expect(try await server.wallet(user).balance == 100_000 - 16 * 300)
        }
    }

    @Test("a transfer over the payer's limit or the payee's maximum balance is refused", arguments: TestEngines.all)
    func transfers(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.tiers) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.fundedUser(balance: 199_000)
            let over = try await server.createTransfer(payer, to: payee.phone, amount: 2_900)
            #expect(over.status == 422 && over.errorCode == "limit_exceeded", "\(over.text)")
            let full = try await server.createTransfer(payer, to: payee.phone, amount: 1_001)
            #expect(full.status == 422 && full.errorCode == "payee_limit_exceeded", "\(full.text)")
            let said = try full.decode(ErrorResponse.self).error
            #expect(
                !said.message.contains("1,990") && !said.message.contains("2,000") && said.limit == nil,
                "neither the payee's balance nor their limit is told: \(full.text)")

            // Allowed at the quote, refused at execution: the payee's balance rose meanwhile.
            let document = try await server.quotedTransfer(payer, to: payee.phone, amount: 500)
            #expect(document.status == .authorizationRequired, "\(document)")
            _ = try await server.services.wallets.fund(phone: payee.phone, amount: 800, reference: nil)
            #expect(try await server.authorizeTransfer(payer, document).status == 200)
            let ended = try await server.awaitTransfer(payer, id: document.id) { $0.status.isFinal }
            #expect(ended.status == .failed && ended.error?.code == "payee_limit_exceeded", "\(ended)")
            #expect(try await server.wallet(payer).balance == 100_000)
            #expect(try await server.wallet(payee).balance == 199_800)
        }
    }

    @Test("an operator assigns a tier, recorded in the action log", arguments: TestEngines.all)
    func operatorTier(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.tiers) { server in
            let admin = try await server.signup()
            _ = try await server.services.operators.setOperator(phone: admin.phone, true)
            let user = try await server.fundedUser()
            let unknown = try await server.client.send(
                .PUT, "/operator/users/\(user.userId)/tier", json: AssignTierRequest(tier: "gold", pin: admin.pin),
                token: admin.token)
            #expect(unknown.status == 422 && unknown.errorCode == "unknown_tier", "\(unknown.text)")
            let assigned = try await server.client.send(
                .PUT, "/operator/users/\(user.userId)/tier", json: AssignTierRequest(tier: "tier1", pin: admin.pin),
                token: admin.token)
            #expect(assigned.status == 200, "\(assigned.text)")
            let detail = try assigned.decode(OperatorUserDetail.self)
            #expect(detail.limitsTier == "tier1" && detail.limitsTiers == ["standard", "tier1"])
            let limits = try await Self.limits(server, user)
            #expect(limits[.daily]?.limit == 1_000 && limits[.perPayment]?.limit == nil)
            let actions = try await server.services.operators.actions()
            #expect(actions.contains { $0.action == "assign_tier" && $0.targetUserId == user.userId })
            #expect(try await server.topUp(user, amount: 1_001, pin: user.pin).errorCode == "limit_exceeded")
        }
    }
}
