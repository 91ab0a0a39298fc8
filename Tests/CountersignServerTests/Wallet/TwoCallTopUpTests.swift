import CountersignAPI
import CountersignStore
import Testing
import WebAuthn

@testable import CountersignServer

/// `POST /user/topup` with the assertion over the options challenge, instead of a token from
/// `POST /biometric/auth/verify`: two calls, with every check the three make.
@Suite("Two-call top-ups", .serialized)
struct TwoCallTopUpTests {
    /// The user's count of failed payment authentications, and whether a key of theirs is flagged.
    static func harm(_ server: LiveServer, _ user: TestUser) async throws -> (failures: Int64, flagged: Bool) {
        let found = try await server.database.read { sql in try await sql.users.find(id: user.userId) }
        let flagged = try await server.database.read { sql in
            try await sql.first(
                "SELECT COUNT(*) AS n FROM credentials WHERE user_id = $1 AND flagged_at IS NOT NULL",
                [.text(user.userId)])
        }
        return (try #require(found).failedPaymentAuths, try #require(flagged).int("n") > 0)
    }

    @Test("the assertion pays in the top-up call, once", arguments: TestEngines.all)
    func paysOnce(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user)
            let paid = try await server.topUp(user, assertion: assertion)
            #expect(paid.status == 200, "\(paid.text)")
            #expect(try paid.decode(TopUpResponse.self).success)
            #expect(try await server.wallet(user).balance == 99_500)
            // Its challenge is spent: the same assertion, in either call, pays nothing more.
            let again = try await server.topUp(user, assertion: assertion)
            #expect(again.status == 401 && again.errorCode == "invalid_challenge", "\(again.text)")
            let verify = try await server.client.post("/biometric/auth/verify", assertion, token: user.token)
            #expect(verify.status == 401)
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }

    @Test("ten copies of one assertion at once pay once", arguments: TestEngines.all)
    func parallelCopies(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user)
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let response = try await server.topUp(user, assertion: assertion)
                        return (response.status, response.errorCode)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1, "\(answers)")
            #expect(answers.filter { $0.0 == 401 }.count == 9, "\(answers)")
            #expect(try await server.wallet(user).balance == 99_500)
            // The owner's own race counts nothing against them.
            #expect(try await Self.harm(server, user) == (0, false))
        }
    }

    @Test("an assertion for another intent pays nothing and stays good for its own", arguments: TestEngines.all)
    func otherIntent(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user, amount: 500)
            for (amount, recipient) in [(600, "08012345678"), (500, "08099999999")] {
                let refused = try await server.topUp(
                    user, amount: Int64(amount), recipient: recipient, assertion: assertion)
                #expect(refused.status == 403 && refused.errorCode == "intent_mismatch", "\(refused.text)")
            }
            #expect(try await server.wallet(user).balance == 100_000)
            #expect(try await server.topUp(user, amount: 500, assertion: assertion).status == 200)
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }

    @Test("a bad signature counts towards the lock; a locked user's assertion pays nothing", arguments: TestEngines.all)
    func lock(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            for attempt in 1...5 {
                var forged = try await server.signedAssertion(user)
                var signature = try #require(Base64URL.decode(forged.response.signature))
                signature[signature.count - 1] ^= 0x01
                forged.response.signature = Base64URL.encode(signature)
                let refused = try await server.topUp(user, assertion: forged)
                if attempt < 5 {
                    #expect(refused.status == 401, "\(refused.text)")
                    #expect(try await Self.harm(server, user).failures == Int64(attempt))
                } else {
                    #expect(refused.status == 423 && refused.errorCode == "payment_locked", "\(refused.text)")
                }
            }
            // The options are refused while locked; an assertion signed before the lock too.
            #expect(try await server.authOptions(user).status == 423)
            #expect(try await server.wallet(user).balance == 100_000)
        }
    }

    @Test("an assertion behind the key's counter is refused and flags the key", arguments: TestEngines.all)
    func counter(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let older = try await server.signedAssertion(user)
            let newer = try await server.signedAssertion(user)
            #expect(try await server.topUp(user, assertion: newer).status == 200)
            let behind = try await server.topUp(user, assertion: older)
            #expect(behind.status == 401 && behind.errorCode == "sign_count_regression", "\(behind.text)")
            #expect(try await Self.harm(server, user) == (1, true))
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }

    @Test(
        "a key whose counter moved on between the check and the payment's transaction is flagged, and nothing moves",
        arguments: TestEngines.all)
    func counterMovedMeanwhile(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let older = try await server.signedAssertion(user)
            let newer = try await server.signedAssertion(user)
            // The older assertion checked, as its request would, before the newer one pays…
            let topUps = server.services.topUps
            let (intent, factor) = try topUps.validate(
                TopUpRequest(amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", assertion: older))
            let (authorization, _) = try await topUps.authorizer.authorize(
                userId: user.userId, intent: intent, factor: factor, session: nil)
            guard case .assertion = authorization else {
                Issue.record("the assertion was spent by its check: \(authorization)")
                return
            }
            #expect(try await server.topUp(user, assertion: newer).status == 200)
            // …then its transaction finds the counter past its own.
            var thrown: (any Error)?
            do {
                _ = try await topUps.debit(
                    userId: user.userId, intent: intent, useCashback: false, authorization: authorization)
            } catch {
                thrown = try await topUps.authorizer.refusal(for: error)
            }
            #expect((thrown as? APIError)?.code == .signCountRegression, "\(String(describing: thrown))")
            #expect(try await Self.harm(server, user) == (1, true))
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }

    @Test("over a spending limit, refused before the challenge is spent", arguments: TestEngines.all)
    func limit(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: SpendingLimitTests.tiers) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user, amount: 2_000)
            for _ in 0..<2 { #expect(try await server.topUp(user, amount: 2_000, pin: user.pin).status == 200) }
            let over = try await server.topUp(user, amount: 2_000, assertion: assertion)
            #expect(over.status == 422 && over.errorCode == "limit_exceeded", "\(over.text)")
            #expect(try await server.wallet(user).balance == 96_000)
            // Nothing spent or counted: the same assertion still earns a token.
            let verify = try await server.client.post("/biometric/auth/verify", assertion, token: user.token)
            #expect(verify.status == 200, "\(verify.text)")
            #expect(try await Self.harm(server, user) == (0, false))
        }
    }

    @Test("user verification renews the PIN allowance as a token's does", arguments: TestEngines.all)
    func allowance(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: PinAllowanceTests.strict) { server in
            let user = try await server.fundedUser()
            for _ in 0..<3 { #expect(try await server.topUp(user, amount: 100, pin: user.pin).status == 200) }
            #expect(
                try await server.topUp(user, amount: 100, pin: user.pin).errorCode == "strong_authentication_required")
            // Present but not verified: the payment goes through, the allowance stays spent.
            let presence = try await server.signedAssertion(user, userVerified: false)
            #expect(try await server.topUp(user, assertion: presence).status == 200)
            #expect(
                try await server.topUp(user, amount: 100, pin: user.pin).errorCode == "strong_authentication_required")
            let verified = try await server.signedAssertion(user, userVerified: true)
            #expect(try await server.topUp(user, assertion: verified).status == 200)
            #expect(try await server.topUp(user, amount: 100, pin: user.pin).status == 200)
        }
    }

    @Test("one factor only, well-formed; a malformed assertion writes nothing", arguments: TestEngines.all)
    func shape(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user)
            let withToken = try await server.topUp(user, token: "x", assertion: assertion)
            #expect(withToken.status == 400 && withToken.errorCode == "ambiguous_authorization", "\(withToken.text)")
            let withPin = try await server.topUp(user, assertion: assertion, pin: user.pin)
            #expect(withPin.status == 400 && withPin.errorCode == "ambiguous_authorization", "\(withPin.text)")
            var malformed = assertion
            malformed.response.authenticatorData = "not base64url!"
            let refused = try await server.topUp(user, assertion: malformed)
            #expect(refused.status == 400, "\(refused.text)")
            #expect(try await Self.harm(server, user) == (0, false))
            // Another user's session with this user's assertion: not their key, not their challenge.
            let other = try await server.fundedUser()
            let stolen = try await server.topUp(other, assertion: assertion)
            #expect(stolen.status == 401, "\(stolen.text)")
            #expect(try await server.wallet(other).balance == 100_000)
            // None of it spent the challenge.
            #expect(try await server.topUp(user, assertion: assertion).status == 200)
        }
    }

    @Test("a retry under the same key replays the answer", arguments: TestEngines.all)
    func idempotent(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let assertion = try await server.signedAssertion(user)
            let first = try await server.topUp(user, assertion: assertion, idempotencyKey: "two-call-1")
            #expect(first.status == 200, "\(first.text)")
            let again = try await server.topUp(user, assertion: assertion, idempotencyKey: "two-call-1")
            #expect(again.status == 200 && again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(again.text == first.text)
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }
}
