import CountersignAPI
import CountersignClient
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
    let token: String
    var device: DeviceAuthenticator?
}

extension LiveServer {
    /// Signs a user up over HTTP.
    func signup(phone: String = TestPhones.next(), pin: String = "1234", name: String = "Ada") async throws -> TestUser {
        let response = try await client.post("/auth/signup", SignupRequest(phone: phone, name: name, pin: pin))
        try #require(response.status == 201, "signup: \(response.status) \(response.text)")
        let session = try response.decode(SessionResponse.self)
        return TestUser(phone: phone, pin: pin, userId: session.userId, token: session.sessionToken)
    }

    /// Registers a software device key for `user` (none attestation) over HTTP.
    func registerDevice(_ user: TestUser, attestation: DeviceAuthenticator.Attestation = .none) async throws -> TestUser {
        var user = user
        user.device = try await client.registerDevice(token: user.token, pin: user.pin, attestation: attestation)
        return user
    }

    /// A user with a device and a funded wallet.
    func fundedUser(balance: Int64 = 100_000) async throws -> TestUser {
        let user = try await registerDevice(try await signup())
        _ = try await services.wallets.fund(phone: user.phone, amount: balance, reference: nil)
        return user
    }

    /// `GET /biometric/auth/options` for an intent.
    func authOptions(_ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678") async throws -> APIResponse {
        try await client.get("/biometric/auth/options?amount=\(amount)&productCode=\(product)&recipientPhone=\(recipient)&supplierSlug=\(product.dropFirst("AIRTIME_".count).lowercased())", token: user.token)
    }

    /// The assertion body a device produces for `challenge`.
    func assertion(_ device: DeviceAuthenticator, challenge: String, userVerified: Bool = true) throws -> AuthenticationResponseJSON {
        try APIClient.assertion(device, challenge: challenge, userVerified: userVerified)
    }

    /// Options → sign → verify: a verification token for the intent.
    func authorize(_ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678") async throws -> String {
        let options = try await authOptions(user, amount: amount, product: product, recipient: recipient).decode(AuthenticationOptionsResponse.self)
        let verify = try await client.post("/biometric/auth/verify", try assertion(try #require(user.device), challenge: options.challenge), token: user.token)
        try #require(verify.status == 200, "verify: \(verify.text)")
        return try #require(try verify.decode(AuthenticationVerifyResponse.self).verificationToken)
    }

    /// `POST /user/topup`.
    func topUp(_ user: TestUser, amount: Int64 = 500, product: String = "AIRTIME_MTN", recipient: String = "08012345678", token: String? = nil, pin: String? = nil, useCashback: Bool? = nil, idempotencyKey: String? = nil) async throws -> APIResponse {
        let request = TopUpRequest(amount: amount, productCode: product, recipientPhone: recipient, supplierSlug: nil, useCashback: useCashback, verificationToken: token, pin: pin)
        return try await client.post("/user/topup", request, token: user.token, headers: idempotencyKey.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// `GET /user/wallet`.
    func wallet(_ user: TestUser) async throws -> WalletResponse {
        try await client.get("/user/wallet", token: user.token).decode(WalletResponse.self)
    }
}

extension APIClient {
    /// Registers a new software device key (P-256) for the session `token`, stepping up with `pin`.
    func registerDevice(token: String, pin: String = "1234", attestation: DeviceAuthenticator.Attestation = .none) async throws -> DeviceAuthenticator {
        let optionsResponse = try await post("/biometric/register/options", RegistrationOptionsRequest(pin: pin), token: token)
        try #require(optionsResponse.status == 200, "register options: \(optionsResponse.text)")
        let options = try optionsResponse.decode(RegistrationOptionsResponse.self)
        let device = DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin)
        let registration = device.makeRegistration(challenge: try #require(Base64URL.decode(options.challenge)), attestation: attestation)
        let body = RegistrationResponseJSON(
            id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
            response: .init(clientDataJSON: Base64URL.encode(registration.clientDataJSON), attestationObject: Base64URL.encode(registration.attestationObject), transports: ["internal"])
        )
        let verify = try await post("/biometric/register/verify", body, token: token)
        try #require(verify.status == 201, "register verify: \(verify.text)")
        return device
    }

    /// The assertion body `device` produces for `challenge` (base64url).
    static func assertion(_ device: DeviceAuthenticator, challenge: String, userVerified: Bool = true) throws -> AuthenticationResponseJSON {
        let signed = device.makeAssertion(challenge: try #require(Base64URL.decode(challenge)), userVerified: userVerified)
        return AuthenticationResponseJSON(
            id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
            response: .init(clientDataJSON: Base64URL.encode(signed.clientDataJSON), authenticatorData: Base64URL.encode(signed.authenticatorData), signature: Base64URL.encode(signed.signature))
        )
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
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
