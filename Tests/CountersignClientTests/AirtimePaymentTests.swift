import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Testing

@Suite("Airtime payment")
struct AirtimePaymentTests {
    static let intent = AuthenticationOptionsRequest(
        amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn")
    static let optionsPath =
        "/biometric/auth/options?amount=500&productCode=AIRTIME_MTN&recipientPhone=08012345678&supplierSlug=mtn"
    static let topUp = TopUpResponse(
        success: true, message: "Topup successful",
        data: .init(
            transactionId: "tx_1", status: "completed", amount: 500, balance: 4500, timestamp: "2026-01-01T00:00:00Z"))

    static var options: String {
        let options = AuthenticationOptionsResponse(
            challenge: "Y2g", rpId: "localhost", allowCredentials: [CredentialDescriptor(id: "cred")],
            userVerification: "required", timeout: 60_000,
            transaction: PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                supplierSlug: "mtn"), nonce: "bm9uY2U"
        )
        return String(decoding: try! JSONEncoder().encode(options), as: UTF8.self)
    }

    static var topUpJSON: String { String(decoding: try! JSONEncoder().encode(topUp), as: UTF8.self) }

    /// The body of `request` as a dictionary.
    static func body(_ request: TransportRequest) throws -> [String: Any] {
        let body = try #require(request.body)
        return try #require(JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    @Test("biometric path: options, local auth, signature, then the top-up carrying the assertion: two calls")
    func biometricTwoCalls() async throws {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect("POST", "/user/topup", json: Self.topUpJSON)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(.success(.biometric)),
            signer: FakeSigner(.success(Fixture.assertion)))
        let receipt = try await payment.pay(Self.intent) { reason in
            Issue.record("PIN asked for although the device path worked: \(reason)")
            return nil
        }
        #expect(receipt?.authorization == .biometric)
        #expect(receipt?.topUp == Self.topUp)
        let topUp = try Self.body(transport.requests[1])
        let assertion = try #require(topUp["assertion"] as? [String: Any])
        #expect(assertion["id"] as? String == Fixture.assertion.id)
        #expect(topUp["verificationToken"] == nil && topUp["pin"] == nil)
        #expect(topUp["amount"] as? Int == 500 && topUp["recipientPhone"] as? String == "08012345678")
        #expect(transport.requests[1].header("Idempotency-Key") == "key-1")
        transport.verifyAllUsed()
    }

    @Test("two calls: the server refuses the assertion (401), and the PIN is asked for with its code")
    func twoCallsRejected() async throws {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect(
            "POST", "/user/topup", status: 401,
            json: #"{"error":{"code":"bad_signature","message":"Signature verification failed."}}"#)
        transport.expect("POST", "/user/topup", json: Self.topUpJSON)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(.success(.biometric)),
            signer: FakeSigner(.success(Fixture.assertion)))
        let asked = Log<AirtimePayment.PINFallbackReason>()
        let receipt = try await payment.pay(Self.intent) { reason in
            asked.append(reason)
            return "1234"
        }
        #expect(asked.all == [.verificationFailed(code: "bad_signature")])
        #expect(receipt?.authorization == .pin(reason: .verificationFailed(code: "bad_signature")))
        let pinTopUp = try Self.body(transport.requests[2])
        #expect(pinTopUp["pin"] as? String == "1234" && pinTopUp["assertion"] == nil)
        transport.verifyAllUsed()
    }

    @Test("two calls: a refusal of the payment itself (422) is thrown, not turned into a PIN prompt")
    func twoCallsPaymentRefused() async {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect(
            "POST", "/user/topup", status: 422,
            json: #"{"error":{"code":"insufficient_funds","message":"Too low."}}"#)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(.success(.biometric)),
            signer: FakeSigner(.success(Fixture.assertion)))
        await #expect(
            throws: CountersignClientError.api(
                status: 422, code: "insufficient_funds", message: "Too low.", retryAfter: nil)
        ) {
            try await payment.pay(Self.intent) { _ in
                Issue.record("PIN asked for after the payment itself was refused")
                return nil
            }
        }
        transport.verifyAllUsed()
    }

    @Test("biometric path in three calls: options, local auth, signature, verify, top-up with the token and no PIN")
    func biometric() async throws {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect(
            "POST", "/biometric/auth/verify",
            json: #"{"verified":true,"verificationToken":"vt_1","expiresIn":300,"message":"ok"}"#)
        transport.expect("POST", "/user/topup", json: Self.topUpJSON)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(.success(.biometric)),
            signer: FakeSigner(.success(Fixture.assertion)), calls: .three)
        let receipt = try await payment.pay(Self.intent) { reason in
            Issue.record("PIN asked for although the device path worked: \(reason)")
            return nil
        }
        #expect(receipt?.authorization == .biometric)
        #expect(receipt?.topUp == Self.topUp)
        let topUp = try Self.body(transport.requests[2])
        #expect(topUp["verificationToken"] as? String == "vt_1")
        #expect(topUp["pin"] == nil)
        #expect(transport.requests[2].header("Idempotency-Key") == "key-1")
        transport.verifyAllUsed()
    }

    @Test(
        "biometric fails or the device cannot sign: the PIN is asked for with the reason, and the top-up carries it, with no token",
        arguments: [
            (LocalAuthError?.some(.failed), SigningError?.none, AirtimePayment.PINFallbackReason.localAuth(.failed)),
            (nil, .noMatchingCredential, .signing(.noMatchingCredential)),
        ])
    func pinFallback(localAuth: LocalAuthError?, signing: SigningError?, reason: AirtimePayment.PINFallbackReason)
        async throws
    {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect("POST", "/user/topup", json: Self.topUpJSON)
        let authenticator = localAuth.map { FakeAuthenticator(.failure($0)) } ?? FakeAuthenticator(.success(.biometric))
        let signer = signing.map { FakeSigner(.failure($0)) } ?? FakeSigner()
        let asked = Log<AirtimePayment.PINFallbackReason>()
        let payment = AirtimePayment(client: Fixture.client(transport), authenticator: authenticator, signer: signer)
        let receipt = try await payment.pay(Self.intent) { reason in
            asked.append(reason)
            return "1234"
        }
        #expect(asked.all == [reason])
        #expect(receipt?.authorization == .pin(reason: reason))
        let topUp = try Self.body(transport.requests[1])
        #expect(topUp["pin"] as? String == "1234")
        #expect(topUp["verificationToken"] == nil)
        transport.verifyAllUsed()
    }

    @Test("no device key: the options refusal leads straight to the PIN, without a prompt")
    func noDeviceKey() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "GET", Self.optionsPath, status: 422,
            json: #"{"error":{"code":"no_registered_credential","message":"Register a device."}}"#)
        transport.expect("POST", "/user/topup", json: Self.topUpJSON)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(), signer: FakeSigner())
        let receipt = try await payment.pay(Self.intent) { _ in "1234" }
        #expect(receipt?.authorization == .pin(reason: .noRegisteredCredential))
        transport.verifyAllUsed()
    }

    @Test("the server rejects the assertion: PIN fallback; the user gives up: nothing is bought")
    func verificationRejectedAndAbandoned() async throws {
        let transport = ScriptedTransport()
        transport.expect("GET", Self.optionsPath, json: Self.options)
        transport.expect(
            "POST", "/biometric/auth/verify", status: 401,
            json: #"{"verified":false,"message":"Signature verification failed.","code":"bad_signature"}"#)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(.success(.biometric)),
            signer: FakeSigner(.success(Fixture.assertion)), calls: .three)
        let asked = Log<AirtimePayment.PINFallbackReason>()
        let receipt = try await payment.pay(Self.intent) { reason in
            asked.append(reason)
            return nil
        }
        #expect(receipt == nil)
        #expect(asked.all == [.verificationFailed(code: "bad_signature")])
        transport.verifyAllUsed()
    }

    @Test("a locked payment is thrown, not turned into a PIN prompt")
    func lockedIsThrown() async {
        let transport = ScriptedTransport()
        transport.expect(
            "GET", Self.optionsPath, status: 423,
            json: #"{"error":{"code":"payment_locked","message":"Locked.","retryAfter":900}}"#)
        let payment = AirtimePayment(
            client: Fixture.client(transport), authenticator: FakeAuthenticator(), signer: FakeSigner())
        await #expect(
            throws: CountersignClientError.api(status: 423, code: "payment_locked", message: "Locked.", retryAfter: 900)
        ) {
            try await payment.pay(Self.intent) { _ in
                Issue.record("PIN asked for while locked")
                return nil
            }
        }
        transport.verifyAllUsed()
    }
}
