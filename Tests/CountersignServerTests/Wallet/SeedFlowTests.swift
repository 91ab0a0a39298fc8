import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// The seed's transaction flow end to end over real HTTP: options → biometric → sign → verify →
/// top-up, and the PIN fallback.
@Suite("Seed flow")
struct SeedFlowTests {
    @Test("biometric top-up: three calls, token consumed, wallet debited, cashback earned", arguments: TestEngines.all)
    func biometricTopUp(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 5_000)
            // Call 1: the challenge, bound to the intent.
            let optionsResponse = try await server.authOptions(user, amount: 500)
            #expect(optionsResponse.status == 200)
            let options = try optionsResponse.decode(AuthenticationOptionsResponse.self)
            #expect(options.rpId == LiveServer.rpId)
            #expect(options.userVerification == "required")
            #expect(options.allowCredentials.map(\.id) == [Base64URL.encode(try #require(user.device).credentialId)])
            // The recipient as the server understood it: E.164, however it was typed.
            #expect(
                options.transaction
                    == .init(
                        kind: "airtime_topup", amount: 500, currency: "NGN", productCode: "AIRTIME_MTN",
                        recipientPhone: "+2348012345678", supplierSlug: "mtn"))
            // The client can recompute the challenge from the nonce and the intent before it signs.
            let intent = PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "+2348012345678",
                supplierSlug: "mtn")
            #expect(
                Base64URL.encode(intent.challenge(nonce: try #require(Base64URL.decode(options.nonce))))
                    == options.challenge)

            // Call 2: the signed proof.
            let verifyResponse = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(try #require(user.device), challenge: options.challenge),
                token: user.token)
            #expect(verifyResponse.status == 200)
            let verified = try verifyResponse.decode(AuthenticationVerifyResponse.self)
            #expect(verified.verified)
            #expect(verified.expiresIn == 300)
            #expect(verified.message == "Authentication successful")
            let token = try #require(verified.verificationToken)

            // Call 3: the payment.
            let topUpResponse = try await server.topUp(user, amount: 500, token: token)
            #expect(topUpResponse.status == 200)
            let topUp = try topUpResponse.decode(TopUpResponse.self)
            #expect(topUp.success)
            #expect(topUp.message == "Topup successful")
            #expect(topUp.data.status == "completed")
            #expect(topUp.data.amount == 500)
            #expect(topUp.data.balance == 4_500)
            #expect(topUp.data.transactionId.hasPrefix("tx_"))

            let wallet = try await server.wallet(user)
            #expect(wallet == WalletResponse.naira(4_500, cashback: 5))
            let history = try await server.client.get("/user/transactions", token: user.token).decode(
                TransactionPage.self)
            #expect(history.transactions.map(\.type) == ["topup", "funding"])
            #expect(history.transactions.first?.authorizedBy == "biometric")
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("PIN fallback pays the same way", arguments: TestEngines.all)
    func pinFallback(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup(pin: "482913")
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 2_000, reference: nil)
            let response = try await server.topUp(user, amount: 500, pin: "482913")
            #expect(response.status == 200)
            let topUp = try response.decode(TopUpResponse.self)
            #expect(topUp.success && topUp.data.balance == 1_500)
            let wrong = try await server.topUp(user, amount: 500, pin: "000000")
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "authorization_failed")
            #expect(try await server.wallet(user).balance == 1_500)
            let history = try await server.client.get("/user/transactions", token: user.token).decode(
                TransactionPage.self)
            #expect(history.transactions.first?.authorizedBy == "pin")
        }
    }

    @Test("supplier refusal reverses the debit and reports failed", arguments: TestEngines.all)
    func supplierFailure(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 1_000)
            let token = try await server.authorize(user, amount: 700, recipient: "08012340000")
            let response = try await server.topUp(user, amount: 700, recipient: "08012340000", token: token)
            #expect(response.status == 200)
            let topUp = try response.decode(TopUpResponse.self)
            #expect(!topUp.success)
            #expect(topUp.code == "supplier_rejected")
            #expect(topUp.data.status == "failed")
            #expect(topUp.data.balance == 1_000)
            #expect(try await server.wallet(user) == WalletResponse.naira(1_000, cashback: 0))
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("useCashback spends cashback first", arguments: TestEngines.all)
    func cashbackFirst(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 100_000, reference: nil)
            // 1% of 50,000 = 500 cashback.
            #expect(try await server.topUp(user, amount: 50_000, pin: user.pin).status == 200)
            #expect(try await server.wallet(user) == WalletResponse.naira(50_000, cashback: 500))
            let response = try await server.topUp(user, amount: 800, pin: user.pin, useCashback: true)
            let topUp = try response.decode(TopUpResponse.self)
            #expect(topUp.data.cashbackUsed == 500)
            // 300 from the wallet; 8 cashback earned on the 800 purchase.
            #expect(try await server.wallet(user) == WalletResponse.naira(49_700, cashback: 8))
            try await LedgerAudit.check(server.database)
        }
    }

    @Test("insufficient funds is 422 and writes nothing", arguments: TestEngines.all)
    func insufficientFunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 500)
            let token = try await server.authorize(user, amount: 500)
            // Spent elsewhere between the passkey and the payment: the debit checks again.
            #expect(try await server.topUp(user, amount: 100, pin: user.pin).status == 200)
            let before = try await LedgerAudit.snapshot(server.database)
            let response = try await server.topUp(user, amount: 500, token: token)
            #expect(response.status == 422)
            #expect(response.errorCode == "insufficient_funds")
            #expect(try await LedgerAudit.snapshot(server.database) == before)
            // The token was not spent: after funding, the same authorization pays.
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 100, reference: nil)
            #expect(try await server.topUp(user, amount: 500, token: token).status == 200)
        }
    }

    @Test(
        "a top-up the balance cannot pay is refused at options time, before the passkey is asked",
        arguments: TestEngines.all)
    func refusedBeforeGesture(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 500_000)
            let options = try await server.authOptions(user, amount: 1_000_000)
            #expect(options.status == 422 && options.errorCode == "insufficient_funds", "\(options.text)")
            let challenges = try await server.database.read { sql in
                try await sql.first(
                    "SELECT COUNT(*) AS n FROM challenges WHERE user_id = $1 AND purpose = 'authentication'",
                    [.text(user.userId)])?.int("n")
            }
            #expect(challenges == 0)
            #expect(try await server.authOptions(user, amount: 500_001).errorCode == "insufficient_funds")
            #expect(try await server.authOptions(user, amount: 500_000).status == 200)
        }
    }

    @Test(
        "a failed top-up names the network as it writes itself, says once that nothing was charged, and reads as failed",
        arguments: TestEngines.all)
    func failedTopUpInWords(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let response = try await server.topUp(
                user, amount: 1_000, product: "AIRTIME_AIRTEL", recipient: "08012340000", pin: user.pin)
            let refused = try response.decode(TopUpResponse.self)
            #expect(!refused.success)
            #expect(refused.message.contains("Airtel") && !refused.message.contains("airtel"), "\(refused.message)")
            #expect(refused.message.components(separatedBy: "not charged").count == 2, "\(refused.message)")
            #expect(try await server.wallet(user).balance == 10_000)
            let history = try await server.client.get("/user/transactions", token: user.token).decode(
                TransactionPage.self)
            let failed = try #require(history.transactions.first { $0.type == "topup" })
            #expect(failed.status == "failed" && failed.failureCode == "supplier_rejected")
        }
    }
}
