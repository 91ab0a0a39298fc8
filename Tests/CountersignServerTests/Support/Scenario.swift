import CountersignAPI
import CountersignClient
import CountersignHarness
import CountersignServer
import Foundation
import Synchronization
import Testing
import WebAuthn

/// A signed-up user with a registered device, as most tests need one.
struct TestUser: Sendable {
    let phone: String
    let pin: String
    let userId: String
    var token: String
    var device: DeviceAuthenticator?
    /// What lets this device sign in again with the PIN alone.
    var deviceToken: String? = nil
}

extension LiveServer {
    /// Signs a user up through the SDK, with a code read from the SMS simulator.
    func signup(phone: String = TestPhones.next(), pin: String = "4827", name: String = "Ada") async throws -> TestUser
    {
        let session = try await EnrolledUser.signup(client.sdk(), phone: phone, name: name, pin: pin)
        return TestUser(
            phone: phone, pin: pin, userId: session.userId, token: session.sessionToken,
            deviceToken: session.deviceToken)
    }

    /// The SMS simulator's messages to `phone` once one holds `text` (messages leave through a
    /// queue), newest first; whatever is there after 30 s otherwise.
    func messages(to phone: String, containing text: String) async throws -> [SimulatedSMSList.Message] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let messages = try await client.sdk().simulatedMessages(to: phone).messages
            if messages.contains(where: { $0.body.contains(text) }) || ContinuousClock.now >= deadline {
                return messages
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A code for `purpose` sent to `phone`, read from the SMS simulator.
    func code(_ phone: String, _ purpose: VerificationPurpose, token: String? = nil) async throws -> (
        verificationId: String, code: String
    ) {
        try await EnrolledUser.simulatedCode(client.sdk(token: token), phone: phone, purpose: purpose)
    }

    /// Registers a software device key for `user` through the SDK, stepping up with the PIN.
    func registerDevice(_ user: TestUser, attestation: DeviceAuthenticator.Attestation = .none) async throws -> TestUser
    {
        var user = user
        user.device = try await client.sdk(token: user.token).registerDevice(
            stepUp: RegistrationOptionsRequest(pin: user.pin), origin: Self.origin, attestation: attestation)
        return user
    }

    /// A user enrolled with a device (the bench's enrolment) and a funded wallet.
    func fundedUser(balance: Int64 = 100_000) async throws -> TestUser {
        let enrolled = try await EnrolledUser.enroll(
            over: client.transport(), phone: TestPhones.next(), name: "Ada", origin: Self.origin)
        _ = try await services.wallets.fund(phone: enrolled.phone, amount: balance, reference: nil)
        return TestUser(
            phone: enrolled.phone, pin: enrolled.pin, userId: enrolled.userId, token: enrolled.sessionToken,
            device: enrolled.device, deviceToken: enrolled.deviceToken)
    }

    /// `GET /biometric/auth/options` for an intent.
    func authOptions(
        _ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678"
    ) async throws -> APIResponse {
        try await client.get(
            "/biometric/auth/options?amount=\(amount)&productCode=\(product)&recipientPhone=\(recipient)&supplierSlug=\(product.dropFirst("AIRTIME_".count).lowercased())",
            token: user.token)
    }

    /// The assertion body a device produces for `challenge`.
    func assertion(_ device: DeviceAuthenticator, challenge: String, userVerified: Bool = true) throws
        -> AuthenticationResponseJSON
    {
        try APIClient.assertion(device, challenge: challenge, userVerified: userVerified)
    }

    /// Options → sign → verify: a verification token for the intent.
    func authorize(
        _ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678"
    ) async throws -> String {
        let options = try await authOptions(user, amount: amount, product: product, recipient: recipient).decode(
            AuthenticationOptionsResponse.self)
        let verify = try await client.post(
            "/biometric/auth/verify", try assertion(try #require(user.device), challenge: options.challenge),
            token: user.token)
        try #require(verify.status == 200, "verify: \(verify.text)")
        return try #require(try verify.decode(AuthenticationVerifyResponse.self).verificationToken)
    }

    /// Options → sign: the assertion a device sends with the payment itself (two calls, not three).
    func signedAssertion(
        _ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678",
        userVerified: Bool = true
    ) async throws -> AuthenticationResponseJSON {
        let options = try await authOptions(user, amount: amount, product: product, recipient: recipient)
        try #require(options.status == 200, "options: \(options.text)")
        return try assertion(
            try #require(user.device), challenge: try options.decode(AuthenticationOptionsResponse.self).challenge,
            userVerified: userVerified)
    }

    /// `POST /user/topup`.
    func topUp(
        _ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678",
        token: String? = nil, assertion: AuthenticationResponseJSON? = nil, pin: String? = nil,
        useCashback: Bool? = nil, idempotencyKey: String? = nil
    ) async throws -> APIResponse {
        let request = TopUpRequest(
            amount: amount, productCode: product, recipientPhone: recipient, supplierSlug: nil,
            useCashback: useCashback, verificationToken: token, assertion: assertion, pin: pin)
        return try await client.post(
            "/user/topup", request, token: user.token, headers: idempotencyKey.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// `count` PIN top-ups of `amount` at once, each retried while the server says five PIN checks of
    /// the account are being judged (429), as a client would; the statuses and codes they ended with.
    func parallelPinTopUps(_ user: TestUser, count: Int, amount: Int64) async throws -> [(Int, String?)] {
        try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<count {
                group.addTask {
                    while true {
                        let response = try await topUp(user, amount: amount, pin: user.pin)
                        if response.status != 429 { return (response.status, response.errorCode) }
                        try await Task.sleep(for: .milliseconds(Int.random(in: 5...50)))
                    }
                }
            }
            return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
        }
    }

    /// `GET /user/wallet`.
    func wallet(_ user: TestUser) async throws -> WalletResponse {
        try await client.get("/user/wallet", token: user.token).decode(WalletResponse.self)
    }
}

extension APIClient {
    /// The assertion body `device` produces for `challenge` (base64url).
    static func assertion(_ device: DeviceAuthenticator, challenge: String, userVerified: Bool = true) throws
        -> AuthenticationResponseJSON
    {
        device.assertionResponse(challenge: try #require(Base64URL.decode(challenge)), userVerified: userVerified)
    }
}

/// Distinct phone numbers for test users.
enum TestPhones {
    private static let counter = Counter()
    static func next() -> String { "0803" + String(format: "%07d", counter.next()) }
}

/// A process-wide counter.
final class Counter: Sendable {
    private let value = Mutex(1_000)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

extension WalletResponse {
    /// The wallet a test server answers with `balance` and `cashback` in naira, the primary wallet,
    /// and nothing in euros.
    static func naira(_ balance: Int64, cashback: Int64 = 0) -> WalletResponse {
        WalletResponse(
            balance: balance, cashback: cashback, currency: "NGN",
            wallets: [
                WalletBalance(currency: "NGN", balance: balance, cashback: cashback),
                WalletBalance(currency: "EUR", balance: 0, cashback: 0),
            ])
    }
}
