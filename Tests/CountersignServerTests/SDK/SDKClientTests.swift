import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import CountersignCore
import CountersignHarness
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// The SDK's API client over its real transport (AsyncHTTPClient) against a live server.
@Suite("SDK client against a live server")
struct SDKClientTests {
    /// Signs with a software device, without the challenge checks of a real signer: enough to drive the server.
    struct DeviceSigner: TransactionSigner {
        let device: DeviceAuthenticator

        func authorize(quote: TransferQuote, challenge: TransferChallenge) throws -> AuthenticationResponseJSON {
            try sign(challenge.challenge)
        }

        func authorize(airtime options: AuthenticationOptionsResponse) throws -> AuthenticationResponseJSON {
            try sign(options.challenge)
        }

        private func sign(_ challenge: String) throws -> AuthenticationResponseJSON {
            device.assertionResponse(challenge: try #require(Base64URL.decode(challenge)))
        }
    }

    /// A local authenticator that always answers `result`.
    struct FixedAuthenticator: LocalAuthenticator {
        let result: Result<LocalAuthMethod, LocalAuthError>
        func authenticate(reason: String) async throws -> LocalAuthMethod { try result.get() }
    }

    @Test("signup, device registration, airtime by device and by PIN, history, logout", arguments: TestEngines.all)
    func airtimeThroughTheSDK(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let client = CountersignAPIClient(
                transport: AsyncHTTPClientTransport(baseURL: server.client.baseURL, client: server.client.http))
            let phone = TestPhones.next()
            try await EnrolledUser.signup(client, phone: phone, name: "Ada", pin: "3816")
            let options = try await client.registrationOptions(stepUp: RegistrationOptionsRequest(pin: "3816"))
            let device = DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin)
            let registered = try await client.registerCredential(
                device.registrationResponse(challenge: try #require(Base64URL.decode(options.challenge))))
            #expect(registered.verified)
            _ = try await server.services.wallets.fund(phone: phone, amount: 10_000, reference: nil)

            let intent = AuthenticationOptionsRequest(
                amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "+234 801 234 5678", supplierSlug: "mtn")
            let byDevice = AirtimePayment(
                client: client, authenticator: FixedAuthenticator(result: .success(.biometric)),
                signer: DeviceSigner(device: device))
            let first = try #require(try await byDevice.pay(intent) { _ in nil })
            #expect(first.authorization == .biometric)
            #expect(first.topUp.data.balance == 9_500)
            // The seed's three calls, kept beside the default two.
            let byToken = AirtimePayment(
                client: client, authenticator: FixedAuthenticator(result: .success(.biometric)),
                signer: DeviceSigner(device: device), calls: .three)
            let viaToken = try #require(try await byToken.pay(intent) { _ in nil })
            #expect(viaToken.authorization == .biometric)
            #expect(viaToken.topUp.data.balance == 9_000)

            let byPIN = AirtimePayment(
                client: client, authenticator: FixedAuthenticator(result: .failure(.cancelled)),
                signer: DeviceSigner(device: device))
            let second = try #require(try await byPIN.pay(intent) { _ in "3816" })
            #expect(second.authorization == .pin(reason: .localAuth(.cancelled)))
            #expect(try await client.wallet().balance == 8_500)
            #expect(try await client.transactions(limit: 1).transactions.count == 1)

            // The streaming path: a refusal arrives as an API error, not as an empty stream.
            let stream = await #expect(throws: CountersignClientError.self) {
                try await client.transferEvents(id: "tr_nobody")
            }
            if case .api(let status, _, _, _, _)? = stream {
                #expect(status == 404)
            } else {
                Issue.record("expected a 404, got \(String(describing: stream))")
            }

            try await client.logout()
            #expect(client.sessionToken == nil)
            await #expect(throws: CountersignClientError.self) { try await client.wallet() }
        }
    }
}
