import CountersignAPI
import CountersignClient
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// Every replay and mismatch the security rules name is refused.
@Suite("Replays and mismatches")
struct ReplayTests {
    @Test("an assertion (and its challenge) works once", arguments: TestEngines.all)
    func assertionReplay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let body = try server.assertion(try #require(user.device), challenge: options.challenge)
            #expect(try await server.client.post("/biometric/auth/verify", body, token: user.token).status == 200)
            let replay = try await server.client.post("/biometric/auth/verify", body, token: user.token)
            #expect(replay.status == 401)
            #expect(replay.errorCode == "invalid_challenge")
            let fresh = try server.assertion(try #require(user.device), challenge: options.challenge)
            #expect(
                try await server.client.post("/biometric/auth/verify", fresh, token: user.token).errorCode
                    == "invalid_challenge")
        }
    }

    @Test("the same assertion sent ten times at once yields one token", arguments: TestEngines.all)
    func concurrentAssertionReplay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let body = try server.assertion(try #require(user.device), challenge: options.challenge)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await server.client.post("/biometric/auth/verify", body, token: user.token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 9)
        }
    }

    @Test("a token pays once", arguments: TestEngines.all)
    func tokenReplay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            #expect(try await server.topUp(user, token: token).status == 200)
            let replay = try await server.topUp(user, token: token)
            #expect(replay.status == 401)
            #expect(replay.errorCode == "token_replayed")
            #expect(try await server.wallet(user).balance == 99_500)
        }
    }

    @Test("the same token sent in twenty top-ups at once pays once", arguments: TestEngines.all)
    func concurrentTokenReplay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<20 {
                    // Half with keys of their own, half without: neither makes a second payment.
                    let key = index.isMultiple(of: 2) ? "replay-\(index)" : nil
                    group.addTask {
                        let answer = try await server.topUp(user, token: token, idempotencyKey: key)
                        return (answer.status, answer.errorCode)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1, "\(answers)")
            #expect(answers.filter { $0.0 == 401 && $0.1 == "token_replayed" }.count == 19, "\(answers)")
            #expect(try await server.wallet(user).balance == 99_500)
            let transactions = try await server.database.read { sql in
                try await sql.first(
                    "SELECT COUNT(*) AS n FROM wallet_transactions WHERE user_id = $1 AND type = 'topup'",
                    [.text(user.userId)])
            }
            #expect(try transactions?.int("n") == 1, "\(String(describing: transactions))")
        }
    }

    @Test("a token dies with the key that earned it: revoked or flagged, it pays nothing", arguments: TestEngines.all)
    func tokenOfRevokedKey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            let credentialId = Base64URL.encode(try #require(user.device).credentialId)
            let revoked = try await server.client.send(
                .DELETE, "/biometric/credentials/\(credentialId)", token: user.token)
            #expect(revoked.status == 204, "\(revoked.text)")
            let paid = try await server.topUp(user, token: token)
            #expect(paid.status == 401 && paid.errorCode == "unknown_credential", "\(paid.text)")
            #expect(try await server.wallet(user).balance == 100_000)

            let other = try await server.fundedUser()
            let flaggedToken = try await server.authorize(other)
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE credentials SET flagged_at = 1, flagged_reason = 'test' WHERE user_id = $1",
                    [.text(other.userId)])
            }
            let refused = try await server.topUp(other, token: flaggedToken)
            #expect(refused.status == 401 && refused.errorCode == "credential_flagged", "\(refused.text)")
            #expect(try await server.wallet(other).balance == 100_000)
        }
    }

    @Test("a token is bound to amount, product and recipient", arguments: TestEngines.all)
    func intentMismatch(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user, amount: 500, product: "AIRTIME_MTN", recipient: "08012345678")
            for (amount, product, recipient) in [
                (501, "AIRTIME_MTN", "08012345678"), (500, "AIRTIME_GLO", "08012345678"),
                (500, "AIRTIME_MTN", "08012345679"),
            ] {
                let response = try await server.topUp(
                    user, amount: Int64(amount), product: product, recipient: recipient, token: token)
                #expect(response.status == 403)
                #expect(response.errorCode == "intent_mismatch")
            }
            // The refusals spent nothing: the matching request still pays.
            #expect(try await server.topUp(user, amount: 500, token: token).status == 200)
        }
    }

    @Test("a token belongs to one user", arguments: TestEngines.all)
    func otherUsersToken(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let alice = try await server.fundedUser()
            let mallory = try await server.fundedUser()
            let token = try await server.authorize(alice)
            let response = try await server.topUp(mallory, token: token)
            #expect(response.status == 403)
            #expect(response.errorCode == "token_wrong_user")
        }
    }

    @Test("tokens expire after 300 s, challenges after their timeout", arguments: TestEngines.all)
    func expiry(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            server.clock.advance(seconds: 301)
            let late = try await server.topUp(user, token: token)
            #expect(late.status == 401)
            #expect(late.errorCode == "token_expired")

            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            server.clock.advance(seconds: Int64(options.timeout / 1000) + 1)
            let expired = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(try #require(user.device), challenge: options.challenge),
                token: user.token)
            #expect(expired.status == 401)
            #expect(expired.errorCode == "invalid_challenge")
        }
    }

    @Test("a forged or tampered token is refused", arguments: TestEngines.all)
    func forgedToken(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            var tampered = Array(token)
            tampered[tampered.count - 3] = tampered[tampered.count - 3] == "A" ? "B" : "A"
            let response = try await server.topUp(user, token: String(tampered))
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_token")
        }
    }

    @Test("a challenge answered by another user's credential is refused", arguments: TestEngines.all)
    func foreignCredential(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let alice = try await server.fundedUser()
            let bob = try await server.fundedUser()
            let options = try await server.authOptions(alice).decode(AuthenticationOptionsResponse.self)
            let response = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(try #require(bob.device), challenge: options.challenge),
                token: alice.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "unknown_credential")
        }
    }

    @Test("wrong origin, missing UV and a bad signature are refused", arguments: TestEngines.all)
    func assertionChecks(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            // An authenticator used from another origin (a phishing site) with the same key.
            let phished = DeviceAuthenticator(
                rpId: LiveServer.rpId, origin: "https://countersign-login.example", privateKey: device.privateKey,
                credentialId: device.credentialId, signCount: 100)
            var options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            var response = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(phished, challenge: options.challenge), token: user.token
            )
            #expect(response.status == 401)
            #expect(response.errorCode == "origin_not_allowed")

            options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            response = try await server.client.post(
                "/biometric/auth/verify",
                try server.assertion(device, challenge: options.challenge, userVerified: false), token: user.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "user_not_verified")

            options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            var body = try server.assertion(device, challenge: options.challenge)
            var signature = try #require(Base64URL.decode(body.response.signature))
            signature[signature.count - 1] ^= 0x01
            body.response.signature = Base64URL.encode(signature)
            response = try await server.client.post("/biometric/auth/verify", body, token: user.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "bad_signature")
            #expect(try response.decode(AuthenticationVerifyResponse.self).verified == false)
        }
    }

    @Test("a sign-count regression flags the credential", arguments: TestEngines.all)
    func signCountRegression(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            for _ in 0..<3 { _ = try await server.authorize(user) }
            // A clone of the key whose counter lags behind the original's.
            let clone = DeviceAuthenticator(
                rpId: LiveServer.rpId, origin: LiveServer.origin, privateKey: device.privateKey,
                credentialId: device.credentialId, signCount: 1)
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let response = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(clone, challenge: options.challenge), token: user.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "sign_count_regression")
            // Flagged: the genuine device can no longer authorize with it either.
            let after = try await server.authOptions(user)
            #expect(after.status == 422)
            #expect(after.errorCode == "no_registered_credential")
        }
    }
}
