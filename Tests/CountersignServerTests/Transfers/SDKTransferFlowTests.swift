import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import CountersignCore
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// The seed's transfer screens, driven through the SDK's controllers against a real
/// `countersign serve` process, on each engine: the device key lives in a sealed key file, local
/// authentication is the biometric simulator with the device PIN behind it.
@Suite("SDK transfer flow against the server process", .serialized)
struct SDKTransferFlowTests {
    struct FixedPIN: PINPrompt {
        let pin: String?
        func requestPIN(reason: String, attempt: Int) async -> String? { pin }
    }

    /// A registered device: its key sealed in a temp directory under the local PIN "6193".
    static func enrol(_ client: CountersignAPIClient, keyDirectory: String) async throws -> DeviceKeySigner {
        let options = try await client.registrationOptions(stepUp: RegistrationOptionsRequest(pin: "3816"))
        let store = FileDeviceKeyStore(directory: keyDirectory, iterations: 1_000)
        _ = try store.create(rpId: options.rp.id, origin: LiveServer.origin, pin: "6193")
        let device = try store.load(pin: "6193")
        _ = try await client.registerCredential(
            device.registrationResponse(challenge: try #require(Base64URL.decode(options.challenge))))
        return DeviceKeySigner(authenticator: device)
    }

    static func localAuth(_ script: [BiometricOutcome], pin: String?) -> FallbackLocalAuthenticator {
        FallbackLocalAuthenticator(
            sensor: SimulatedBiometricSensor(script: script),
            pinVerifier: LocalPINVerifier(pin: "6193", iterations: 1_000), pinPrompt: FixedPIN(pin: pin)
        )
    }

    @Test("success, declined fees and failed local auth, screen by screen", arguments: TestEngines.all)
    func screens(engine: DatabaseEngine) async throws {
        try await ServeProcess.with(engine) { server, fund in
            let keyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-key-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: keyDirectory) }
            let transport = AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http)
            let payer = CountersignAPIClient(transport: transport)
            let payee = CountersignAPIClient(transport: transport)
            let (payerPhone, payeePhone) = (TestPhones.next(), TestPhones.next())
            try await EnrolledUser.signup(payer, phone: payerPhone, name: "Ada", pin: "3816")
            try await EnrolledUser.signup(payee, phone: payeePhone, name: "Bola", pin: "5092")
            let signer = try await Self.enrol(payer, keyDirectory: keyDirectory)
            try await fund(payerPhone, 100_000)
            let repository = TransactionRepository(client: payer)
            let request = CreateTransferRequest(payeePhone: payeePhone, amount: 10_000, currency: "NGN", note: "rent")

            // 1. Fees shown, accepted, biometric approved, signed, SUCCESS, back to the dashboard.
            let initiate = PaymentInitiateController(repository: repository)
            let quoted = try #require(await initiate.submit(request), "initiate: \(initiate.screen.value)")
            let details = PaymentDetailsController(repository: repository)
            #expect(await details.present(quoted))
            guard case .reviewing(let quote, let payeeName) = details.screen.value else {
                Issue.record("details: \(details.screen.value)")
                return
            }
            #expect(payeeName == "Bola")
            #expect(quote.fees.map(\.amount) == [1_000, 50] && quote.total == 11_050)
            guard case .verdict(let document) = await details.choose(proceed: true) else {
                Issue.record("details did not lead to the verdict")
                return
            }
            let verdict = PaymentVerdictController(
                repository: repository, authenticator: Self.localAuth([.approved], pin: nil), signer: signer)
            guard case .succeeded(let done) = await verdict.authorize(document) else {
                Issue.record("verdict: \(verdict.screen.value)")
                return
            }
            #expect(done.status == .success)
            let finalize = PaymentFinalizeController(client: payer, screens: [initiate, details, verdict])
            #expect(
                await finalize.finish()
                    == .dashboard(WalletResponse.naira(100_000 - 11_050, cashback: 0)))
            #expect(try await payee.wallet().balance == 10_000)

            // 2. Fees declined: DECLINED on the server, nothing moved.
            let second = try #require(await PaymentInitiateController(repository: repository).submit(request))
            let declining = PaymentDetailsController(repository: repository)
            #expect(await declining.present(second))
            #expect(await declining.choose(proceed: false) == .dashboard)
            guard case .declined(let declined) = declining.screen.value else {
                Issue.record("decline: \(declining.screen.value)")
                return
            }
            #expect(declined.status == .declined)

            // 3. Biometric refused three times, then the PIN prompt cancelled: the transfer is
            //    cancelled on the server and nothing is signed.
            let third = try #require(await PaymentInitiateController(repository: repository).submit(request))
            let countBefore = signer.signCount
            let refused = PaymentVerdictController(
                repository: repository,
                authenticator: Self.localAuth([.notRecognised, .notRecognised, .notRecognised], pin: nil),
                signer: signer
            )
            #expect(await refused.authorize(third) == .abandoned(transferId: third.id, .cancelled))
            #expect(signer.signCount == countBefore)
            #expect(try await repository.document(third.id).status == .cancelled)

            // 4. More than the wallet holds: refused before any quote, the screen says why.
            let tooMuch = PaymentInitiateController(repository: repository)
            let over = CreateTransferRequest(payeePhone: payeePhone, amount: 1_000_000, currency: "NGN")
            #expect(await tooMuch.submit(over) == nil)
            guard case .refused(let code, _) = tooMuch.screen.value else {
                Issue.record("expected a refusal, got \(tooMuch.screen.value)")
                return
            }
            #expect(code == "insufficient_funds")

            #expect(try await payer.wallet().balance == 100_000 - 11_050)
            #expect(try await payee.wallet().balance == 10_000)
        }
    }

    @Test(
        "airtime through the SDK: by biometric, then by account PIN when no biometric is available",
        arguments: TestEngines.all)
    func airtime(engine: DatabaseEngine) async throws {
        try await ServeProcess.with(engine) { server, fund in
            let keyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-key-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: keyDirectory) }
            let client = CountersignAPIClient(
                transport: AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http))
            let phone = TestPhones.next()
            try await EnrolledUser.signup(client, phone: phone, name: "Ada", pin: "3816")
            let signer = try await Self.enrol(client, keyDirectory: keyDirectory)
            try await fund(phone, 10_000)
            let intent = AuthenticationOptionsRequest(
                amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn")

            let biometric = AirtimePayment(
                client: client, authenticator: Self.localAuth([.approved], pin: nil), signer: signer)
            let first = try #require(
                try await biometric.pay(intent) { _ in
                    Issue.record("the PIN was asked for although the biometric succeeded")
                    return nil
                })
            #expect(first.authorization == .biometric)
            #expect(first.topUp.success && first.topUp.data.balance == 9_500)

            // No biometric, no device PIN entered: the device path gives way to the account PIN.
            let fallback = AirtimePayment(
                client: client, authenticator: Self.localAuth([.unavailable], pin: nil), signer: signer)
            let second = try #require(try await fallback.pay(intent) { _ in "3816" })
            #expect(second.authorization == .pin(reason: .localAuth(.cancelled)))
            #expect(second.topUp.success && second.topUp.data.balance == 9_000)
            #expect(try await client.wallet() == WalletResponse.naira(9_000, cashback: 10))
        }
    }
}
