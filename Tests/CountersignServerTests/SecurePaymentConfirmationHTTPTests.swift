import CountersignAPI
import CountersignClient
import CountersignCore
import CountersignServer
import Foundation
import Testing
import WebAuthn

/// Secure Payment Confirmation over HTTP: the payment challenges carry what a page passes to
/// `PaymentRequest`; `payment.get` assertions are accepted only on the payment paths and only when
/// what the browser showed is what the server issued.
@Suite("Secure Payment Confirmation over HTTP")
struct SecurePaymentConfirmationHTTPTests {
    @Test("registration options carry the payment extension only on request, with a discoverable, verified credential", arguments: TestEngines.all)
    func paymentExtensionOnRequest(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.userVerification = "preferred" }) { server in
            let user = try await server.signup()
            let plain = try await server.client.post("/biometric/register/options", RegistrationOptionsRequest(pin: user.pin), token: user.token)
            #expect(!plain.text.contains("extensions"))
            let plainOptions = try plain.decode(RegistrationOptionsResponse.self)
            #expect(plainOptions.authenticatorSelection.residentKey == "preferred" && plainOptions.authenticatorSelection.userVerification == "preferred")

            let payment = try await server.client.post("/biometric/register/options", RegistrationOptionsRequest(pin: user.pin, payment: true), token: user.token)
                .decode(RegistrationOptionsResponse.self)
            #expect(payment.extensions == RegistrationExtensions(payment: .init(isPayment: true)))
            #expect(payment.authenticatorSelection.residentKey == "required" && payment.authenticatorSelection.userVerification == "required")
            // The challenge demands user verification too: a registration without UV is refused.
            let key = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            let unverified = key.makeRegistration(challenge: try #require(Base64URL.decode(payment.challenge)), userVerified: false)
            let body = RegistrationResponseJSON(
                id: Base64URL.encode(key.credentialId), rawId: Base64URL.encode(key.credentialId),
                response: .init(clientDataJSON: Base64URL.encode(unverified.clientDataJSON), attestationObject: Base64URL.encode(unverified.attestationObject))
            )
            let refused = try await server.client.post("/biometric/register/verify", body, token: user.token)
            #expect(refused.status == 401 && refused.errorCode == "user_not_verified", "\(refused.text)")
        }
    }
}
