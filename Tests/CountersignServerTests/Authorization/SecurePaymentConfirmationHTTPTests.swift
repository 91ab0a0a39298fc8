import CountersignAPI
import CountersignClient
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// Secure Payment Confirmation over HTTP: the payment challenges carry what a page passes to
/// `PaymentRequest`; `payment.get` assertions are accepted only on the payment paths and only when
/// what the browser showed is what the server issued.
@Suite("Secure Payment Confirmation over HTTP")
struct SecurePaymentConfirmationHTTPTests {
    /// An https payee origin (SPC refuses http), and no payment lock in the way of the refusal cases.
    static func run(_ engine: DatabaseEngine, _ body: @Sendable (LiveServer) async throws -> Void) async throws {
        try await LiveServer.run(
            engine,
            configure: {
                $0.payeeOrigin = "https://shop.test"
                $0.paymentFailureThreshold = 100
            }, body)
    }

    @Test(
        "top-up options carry the SPC data; a payment.get showing exactly it pays; webauthn.get is unchanged",
        arguments: TestEngines.all)
    func topUpBySPC(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server in
            let user = try await server.fundedUser(balance: 100_000)
            let device = try #require(user.device)
            let options = try await server.authOptions(user, amount: 1_250).decode(AuthenticationOptionsResponse.self)
            let spc = try #require(options.securePaymentConfirmation)
            #expect(
                spc.rpId == LiveServer.rpId && spc.challenge == options.challenge
                    && spc.credentialIds == [Base64URL.encode(device.credentialId)])
            #expect(
                spc.payeeName == "Countersign" && spc.payeeOrigin == "https://shop.test"
                    && spc.timeout == options.timeout)
            #expect(spc.total == .init(currency: "NGN", value: "12.50"))
            #expect(
                spc.instrument.displayName == "Countersign wallet"
                    && spc.instrument.icon.hasPrefix("data:image/png;base64,"))

            let verify = try await server.client.post(
                "/biometric/auth/verify", try ShownPayment(spc).assertion(device, challenge: spc.challenge),
                token: user.token)
            #expect(verify.status == 200, "\(verify.text)")
            let token = try #require(try verify.decode(AuthenticationVerifyResponse.self).verificationToken)
            #expect(try await server.topUp(user, amount: 1_250, token: token).status == 200)
            #expect(try await server.wallet(user).balance == 100_000 - 1_250)

            // The WebAuthn path, untouched.
            let plain = try await server.authorize(user, amount: 500)
            #expect(try await server.topUp(user, amount: 500, token: plain).status == 200)
        }
    }

    @Test(
        "a wallet order's SPC sheet names its seller; shown so it pays, shown without the seller it pays nothing",
        arguments: TestEngines.all)
    func orderBySPC(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server in
            let (_, buyer, order) = try await WalletOrderPaymentTests.walletOrder(server)
            let device = try #require(buyer.device)
            let issue = {
                try #require(
                    try await server.client.post("/orders/\(order.id)/pay/options", token: buyer.token)
                        .decode(AuthenticationOptionsResponse.self).securePaymentConfirmation)
            }
            let first = try await issue()
            #expect(first.payeeName == "Ada via Countersign" && first.total == .init(currency: "EUR", value: "100.00"))
            var platformOnly = ShownPayment(first)
            platformOnly.payeeName = "Countersign"
            let refused = try await server.client.post(
                "/biometric/auth/verify", try platformOnly.assertion(device, challenge: first.challenge),
                token: buyer.token)
            #expect(refused.status == 401 && refused.errorCode == "payment_data_mismatch", "\(refused.text)")

            let spc = try await issue()
            let verify = try await server.client.post(
                "/biometric/auth/verify", try ShownPayment(spc).assertion(device, challenge: spc.challenge),
                token: buyer.token)
            #expect(verify.status == 200, "\(verify.text)")
            let token = try #require(try verify.decode(AuthenticationVerifyResponse.self).verificationToken)
            let paid = try await WalletOrderPaymentTests.pay(server, buyer, order.id, token: token)
            #expect(paid.status == 200, "\(paid.text)")
        }
    }

    @Test(
        "each member the browser showed differently is 401 payment_data_mismatch; nothing is paid",
        arguments: TestEngines.all)
    func mismatchesRefused(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server in
            let user = try await server.fundedUser(balance: 100_000)
            let device = try #require(user.device)
            let edits: [(String, @Sendable (inout ShownPayment) -> Void)] = [
                ("rpId", { $0.rpId = "evil.test" }),
                ("topOrigin", { $0.topOrigin = "https://evil.test" }),
                ("payeeName", { $0.payeeName = "Mallory" }),
                ("payeeName absent", { $0.payeeName = nil }),
                ("payeeOrigin", { $0.payeeOrigin = "https://evil.test" }),
                ("payeeOrigin absent", { $0.payeeOrigin = nil }),
                ("total value", { $0.value = "1.00" }),
                ("total currency", { $0.currency = "EUR" }),
                ("instrument displayName", { $0.displayName = "Visa •••• 4242" }),
                ("instrument icon", { $0.icon = "https://evil.test/icon.png" }),
            ]
            for (name, edit) in edits {
                let options = try await server.authOptions(user, amount: 1_250).decode(
                    AuthenticationOptionsResponse.self)
                let spc = try #require(options.securePaymentConfirmation)
                var shown = ShownPayment(spc)
                edit(&shown)
                let refused = try await server.client.post(
                    "/biometric/auth/verify", try shown.assertion(device, challenge: spc.challenge), token: user.token)
                #expect(
                    refused.status == 401 && refused.errorCode == "payment_data_mismatch", "\(name): \(refused.text)")
                let failure = try refused.decode(AuthenticationVerifyResponse.self)
                #expect(!failure.verified && failure.verificationToken == nil, "\(name)")
                // The challenge is spent: the honest assertion cannot follow on it.
                let late = try await server.client.post(
                    "/biometric/auth/verify", try ShownPayment(spc).assertion(device, challenge: spc.challenge),
                    token: user.token)
                #expect(late.status == 401 && late.errorCode == "invalid_challenge", "\(name): \(late.text)")
            }
            #expect(try await server.wallet(user).balance == 100_000)
        }
    }

    @Test(
        "without an https public base URL or --payee-origin, no payee origin is issued, and one shown is refused",
        arguments: TestEngines.all)
    func noPayeeOriginOverHTTP(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let spc = try #require(options.securePaymentConfirmation)
            #expect(spc.payeeOrigin == nil && spc.total.value == "5.00")
            var shown = ShownPayment(spc)
            shown.payeeOrigin = "http://localhost"
            let refused = try await server.client.post(
                "/biometric/auth/verify", try shown.assertion(device, challenge: spc.challenge), token: user.token)
            #expect(refused.status == 401 && refused.errorCode == "payment_data_mismatch", "\(refused.text)")
            let again = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let verified = try await server.client.post(
                "/biometric/auth/verify",
                try ShownPayment(try #require(again.securePaymentConfirmation)).assertion(
                    device, challenge: again.challenge), token: user.token)
            #expect(verified.status == 200, "\(verified.text)")
        }
    }

    @Test(
        "payment.get is refused for a step-up and for a registration (wrong_type); nothing is registered",
        arguments: TestEngines.all)
    func refusedOutsidePayments(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            let issued = try #require(
                try await server.authOptions(user).decode(AuthenticationOptionsResponse.self).securePaymentConfirmation)

            let stepUp = try await server.client.post("/biometric/step-up/options", token: user.token).decode(
                StepUpOptionsResponse.self)
            let spcStepUp = try ShownPayment(issued).assertion(device, challenge: stepUp.challenge)
            let refused = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(assertion: spcStepUp), token: user.token)
            #expect(refused.status == 401 && refused.errorCode == "wrong_type", "\(refused.text)")

            let creation = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: user.pin), token: user.token
            )
            .decode(RegistrationOptionsResponse.self)
            let newKey = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            let registration = newKey.makeRegistration(challenge: try #require(Base64URL.decode(creation.challenge)))
            var shown = ShownPayment(issued)
            shown.type = "payment.get"
            let body = RegistrationResponseJSON(
                id: Base64URL.encode(newKey.credentialId), rawId: Base64URL.encode(newKey.credentialId),
                response: .init(
                    clientDataJSON: Base64URL.encode(shown.clientDataJSON(challenge: creation.challenge)),
                    attestationObject: Base64URL.encode(registration.attestationObject))
            )
            let notRegistered = try await server.client.post("/biometric/register/verify", body, token: user.token)
            #expect(notRegistered.status == 401 && notRegistered.errorCode == "wrong_type", "\(notRegistered.text)")
            #expect(
                try await server.client.get("/biometric/credentials", token: user.token).decode(CredentialList.self)
                    .credentials.count == 1)
        }
    }

    @Test(
        "registration options carry the payment extension only on request, with a discoverable, verified platform credential",
        arguments: TestEngines.all)
    func paymentExtensionOnRequest(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.userVerification = "preferred" }) { server in
            let user = try await server.signup()
            let plain = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: user.pin), token: user.token)
            #expect(!plain.text.contains("extensions"))
            let plainOptions = try plain.decode(RegistrationOptionsResponse.self)
            #expect(
                plainOptions.authenticatorSelection.residentKey == "preferred"
                    && plainOptions.authenticatorSelection.userVerification == "preferred")

            let payment = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: user.pin, payment: true),
                token: user.token
            )
            .decode(RegistrationOptionsResponse.self)
            #expect(payment.extensions == RegistrationExtensions(payment: .init(isPayment: true)))
            #expect(
                payment.authenticatorSelection.residentKey == "required"
                    && payment.authenticatorSelection.userVerification == "required")
            #expect(
                payment.authenticatorSelection.authenticatorAttachment == "platform"
                    && plainOptions.authenticatorSelection.authenticatorAttachment == nil)
            // The challenge demands user verification too: a registration without UV is refused.
            let key = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            let unverified = key.makeRegistration(
                challenge: try #require(Base64URL.decode(payment.challenge)), userVerified: false)
            let body = RegistrationResponseJSON(
                id: Base64URL.encode(key.credentialId), rawId: Base64URL.encode(key.credentialId),
                response: .init(
                    clientDataJSON: Base64URL.encode(unverified.clientDataJSON),
                    attestationObject: Base64URL.encode(unverified.attestationObject))
            )
            let refused = try await server.client.post("/biometric/register/verify", body, token: user.token)
            #expect(refused.status == 401 && refused.errorCode == "user_not_verified", "\(refused.text)")
        }
    }

    @Test(
        "a transfer's challenge carries the quote's total to its payee; SPC authorizes it; a wrong total fails it",
        arguments: TestEngines.all)
    func transferBySPC(engine: DatabaseEngine) async throws {
        try await Self.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let device = try #require(payer.device)
            let payee = try await server.signup(name: "Bola")
            let quoted = try await server.quotedTransfer(payer, to: payee.phone, amount: 10_000)
            let challenge = try #require(quoted.challenge)
            let spc = try #require(challenge.securePaymentConfirmation)
            #expect(
                spc.total == .init(currency: "NGN", value: "110.50") && spc.payeeName == "Bola via Countersign"
                    && spc.challenge == challenge.challenge)
            let authorized = try await server.authorizeTransfer(
                payer, quoted, body: try ShownPayment(spc).assertion(device, challenge: spc.challenge))
            #expect(authorized.status == 200, "\(authorized.text)")
            let done = try await server.awaitTransfer(payer, id: quoted.id) {
                $0.status == .success || $0.status == .failed
            }
            #expect(done.status == .success)

            let second = try await server.quotedTransfer(payer, to: payee.phone, amount: 10_000)
            var shown = ShownPayment(try #require(second.challenge?.securePaymentConfirmation))
            shown.value = "100.00"
            let refused = try await server.authorizeTransfer(
                payer, second, body: try shown.assertion(device, challenge: try #require(second.challenge).challenge))
            #expect(refused.status == 401 && refused.errorCode == "authorization_failed", "\(refused.text)")
            #expect(
                try await server.client.get("/transfers/\(second.id)", token: payer.token).decode(TransferDocument.self)
                    .status == .failed)
            #expect(try await server.wallet(payer).balance == 100_000 - 11_050)
        }
    }
}
