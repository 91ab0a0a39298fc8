import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import CountersignHarness
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// The PIN is one factor: it pays only within the low-value allowance (per payment, and in all and
/// in number since the last passkey payment with user verification); beyond it, only the passkey.
@Suite("PIN allowance")
struct PinAllowanceTests {
    /// ₦10 at once, ₦25 and 3 payments in all: small numbers, the same rule as the defaults.
    static func strict(_ configuration: inout ServerConfiguration) {
        configuration.pinAllowance = PinAllowance(rules: [
            "NGN": .init(maxAmount: 1_000, cumulativeAmount: 2_500, maxPayments: 3)
        ])
        configuration.userVerification = "preferred"
    }

    static func options(_ server: LiveServer, _ user: TestUser, amount: Int64) async throws
        -> AuthenticationOptionsResponse
    {
        let response = try await server.authOptions(user, amount: amount)
        try #require(response.status == 200, "\(response.text)")
        return try response.decode()
    }

    @Test("a PIN payment over the per-payment amount is refused before the PIN is checked", arguments: TestEngines.all)
    func overPerPayment(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.strict) { server in
            let user = try await server.fundedUser()
            #expect(try await Self.options(server, user, amount: 1_001).pinAllowed == false)
            #expect(try await Self.options(server, user, amount: 1_000).pinAllowed == true)
            let refused = try await server.topUp(user, amount: 1_001, pin: user.pin)
            #expect(refused.status == 403 && refused.errorCode == "strong_authentication_required", "\(refused.text)")
            // A wrong PIN is not even judged: nothing counts towards the lock.
            let wrong = try await server.topUp(user, amount: 1_001, pin: "0000")
            #expect(wrong.errorCode == "strong_authentication_required", "\(wrong.text)")
            #expect(try await server.wallet(user).balance == 100_000)
            let token = try await server.authorize(user, amount: 1_001)
            #expect(try await server.topUp(user, amount: 1_001, token: token).status == 200)
        }
    }

    @Test(
        "the PIN pays in all at most the cumulative amount and the count until a verified passkey payment",
        arguments: TestEngines.all)
    func cumulativeAndCount(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.strict) { server in
            let user = try await server.fundedUser()
            for _ in 0..<2 { #expect(try await server.topUp(user, amount: 1_000, pin: user.pin).status == 200) }
            // ₦20 spent: ₦5 more fits, ₦6 does not.
            #expect(try await Self.options(server, user, amount: 600).pinAllowed == false)
            let over = try await server.topUp(user, amount: 600, pin: user.pin)
            #expect(over.status == 403 && over.errorCode == "strong_authentication_required", "\(over.text)")
            #expect(try await server.topUp(user, amount: 500, pin: user.pin).status == 200)
            // Three payments: the fourth, however small, needs the passkey.
            let fourth = try await server.topUp(user, amount: 100, pin: user.pin)
            #expect(fourth.status == 403 && fourth.errorCode == "strong_authentication_required", "\(fourth.text)")
            #expect(try await server.wallet(user).balance == 100_000 - 2_500)

            // A passkey without user verification is one factor too: the allowance stays spent.
            let options = try await Self.options(server, user, amount: 100)
            let unverified = try await server.client.post(
                "/biometric/auth/verify",
                try server.assertion(try #require(user.device), challenge: options.challenge, userVerified: false),
                token: user.token)
            let weak = try #require(try unverified.decode(AuthenticationVerifyResponse.self).verificationToken)
            #expect(try await server.topUp(user, amount: 100, token: weak).status == 200)
            #expect(try await server.topUp(user, amount: 100, pin: user.pin).status == 403)

            // With user verification: two factors, and the PIN allowance starts again.
            let strong = try await server.authorize(user, amount: 100)
            #expect(try await server.topUp(user, amount: 100, token: strong).status == 200)
            #expect(try await Self.options(server, user, amount: 1_000).pinAllowed == true)
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin).status == 200)
        }
    }

    @Test("parallel PIN payments never pass the allowance together", arguments: TestEngines.all)
    func parallel(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.strict) { server in
            let user = try await server.fundedUser()
            let statuses = try await server.parallelPinTopUps(user, count: 20, amount: 500)
            #expect(statuses.filter { $0.0 == 200 }.count == 3, "\(statuses)")
            #expect(statuses.filter { $0.0 == 403 && $0.1 == "strong_authentication_required" }.count == 17)
            #expect(try await server.wallet(user).balance == 100_000 - 1_500)
        }
    }

    @Test("with no passkey and the allowance spent, the options say the passkey is needed", arguments: TestEngines.all)
    func noPasskey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.strict) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            let within = try await server.authOptions(user, amount: 500)
            #expect(within.status == 422 && within.errorCode == "no_registered_credential", "\(within.text)")
            let beyond = try await server.authOptions(user, amount: 5_000)
            #expect(beyond.status == 403 && beyond.errorCode == "strong_authentication_required", "\(beyond.text)")
        }
    }

    @Test("the SDK offers the passkey, not the PIN, beyond the allowance", arguments: TestEngines.all)
    func sdkPasskeyRequired(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.strict) { server in
            let client = CountersignAPIClient(
                transport: AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http))
            let phone = TestPhones.next()
            try await EnrolledUser.signup(client, phone: phone, name: "Ada", pin: "3816")
            let options = try await client.registrationOptions(stepUp: RegistrationOptionsRequest(pin: "3816"))
            let device = DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin)
            _ = try await client.registerCredential(
                device.registrationResponse(challenge: try #require(Base64URL.decode(options.challenge))))
            _ = try await server.services.wallets.fund(phone: phone, amount: 10_000, reference: nil)
            let cancelled = AirtimePayment(
                client: client, authenticator: SDKClientTests.FixedAuthenticator(result: .failure(.cancelled)),
                signer: SDKClientTests.DeviceSigner(device: device))
            let intent = AuthenticationOptionsRequest(
                amount: 2_000, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn")
            let refused = await #expect(throws: AirtimePayment.PasskeyRequired.self) {
                _ = try await cancelled.pay(intent) { _ in
                    Issue.record("the PIN was asked for beyond the allowance")
                    return "3816"
                }
            }
            #expect(refused?.reason == .localAuth(.cancelled))
            // A user with no key at all is told the same, with that reason.
            let keyless = CountersignAPIClient(
                transport: AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http))
            let other = TestPhones.next()
            try await EnrolledUser.signup(keyless, phone: other, name: "Bo", pin: "3816")
            _ = try await server.services.wallets.fund(phone: other, amount: 10_000, reference: nil)
            let noKey = await #expect(throws: AirtimePayment.PasskeyRequired.self) {
                _ = try await AirtimePayment(
                    client: keyless, authenticator: SDKClientTests.FixedAuthenticator(result: .failure(.cancelled)),
                    signer: SDKClientTests.DeviceSigner(device: device)
                ).pay(intent) { _ in
                    Issue.record("the PIN was asked for beyond the allowance")
                    return "3816"
                }
            }
            #expect(noKey?.reason == .noRegisteredCredential)
            #expect(try await client.wallet().balance == 10_000)
            var small = intent
            small.amount = 500
            let byPIN = try #require(try await cancelled.pay(small) { _ in "3816" })
            #expect(byPIN.authorization == .pin(reason: .localAuth(.cancelled)))
        }
    }
}
