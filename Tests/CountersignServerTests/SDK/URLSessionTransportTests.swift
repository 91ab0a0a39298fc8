import CountersignAPI
import CountersignClient
import CountersignClientURLSession
import CountersignCodec
import CountersignCore
import CountersignHarness
import CountersignServer
import Foundation
import Testing

/// The SDK over `URLSessionTransport` (FoundationNetworking on Linux) against a live server on loopback.
/// Each test has a time limit because a transport that never resumes its caller would hang the
/// suite; it is generous because the whole suite shares two cores.
@Suite("URLSession transport against a live server", .timeLimit(.minutes(3)))
struct URLSessionTransportTests {
    @Test("signup, wallet, a refusal, and the bodies of requests and responses")
    func oneShotCalls() async throws {
        try await LiveServer.run(.sqlite) { server in
            let client = CountersignAPIClient(transport: URLSessionTransport(baseURL: server.client.baseURL + "/"))
            let phone = TestPhones.next()
            try await EnrolledUser.signup(client, phone: phone, name: "Ada", pin: "3816")
            #expect(client.sessionToken != nil)
            _ = try await server.services.wallets.fund(phone: phone, amount: 10_000, reference: nil)
            #expect(try await client.wallet() == WalletResponse.naira(10_000, cashback: 0))

            // A refusal arrives as the server's error, status and code intact, on both paths.
            let missing = await #expect(throws: CountersignClientError.self) {
                try await client.transfer(id: "tr_nobody")
            }
            #expect(missing?.code == "transfer_not_found")
            let stream = await #expect(throws: CountersignClientError.self) {
                try await client.transferEvents(id: "tr_nobody")
            }
            if case .api(let status, _, _, _, _)? = stream {
                #expect(status == 404)
            } else {
                Issue.record("expected a 404, got \(String(describing: stream))")
            }

            try await client.logout()
            await #expect(throws: CountersignClientError.self) { try await client.wallet() }
        }
    }

    @Test("a transfer's event stream delivers each version as it happens, up to the final one")
    func eventStream() async throws {
        // A transport that buffers the body would hand the events over only when the server ends
        // the stream, at this limit, without the final version: the test then fails, not hangs.
        try await LiveServer.run(.sqlite, configure: { $0.streamMaxSeconds = 60 }) { server in
            let transport = URLSessionTransport(baseURL: server.client.baseURL)
            let payer = CountersignAPIClient(transport: transport)
            let payee = CountersignAPIClient(transport: transport)
            let (payerPhone, payeePhone) = (TestPhones.next(), TestPhones.next())
            try await EnrolledUser.signup(payer, phone: payerPhone, name: "Ada", pin: "3816")
            try await EnrolledUser.signup(payee, phone: payeePhone, name: "Bola", pin: "5092")
            // Money moves only from a payer with a device key.
            let options = try await payer.registrationOptions(stepUp: RegistrationOptionsRequest(pin: "3816"))
            let device = DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin)
            let registration = device.makeRegistration(challenge: try #require(Base64URL.decode(options.challenge)))
            let id = Base64URL.encode(device.credentialId)
            #expect(
                try await payer.registerCredential(
                    RegistrationResponseJSON(
                        id: id, rawId: id,
                        response: .init(
                            clientDataJSON: Base64URL.encode(registration.clientDataJSON),
                            attestationObject: Base64URL.encode(registration.attestationObject)
                        ))
                ).verified)
            _ = try await server.services.wallets.fund(phone: payerPhone, amount: 10_000, reference: nil)
            let created = try await payer.createTransfer(
                CreateTransferRequest(payeePhone: payeePhone, amount: 1_000, currency: "NGN"))

            // `send` reads a body to its end, and an open event stream has none: the deadline ends it.
            let impatient = URLSessionTransport(baseURL: server.client.baseURL, timeout: .milliseconds(500))
            let token = try #require(payer.sessionToken)
            let started = ContinuousClock.now
            await #expect(throws: URLError.self) {
                try await impatient.send(
                    TransportRequest(
                        method: "GET", path: "/transfers/\(created.id)/events",
                        headers: ["Authorization": "Bearer \(token)"]))
            }
            #expect(ContinuousClock.now - started < .seconds(10))

            // One connection: the cancel is sent only after the quote arrived on it, so the
            // transport must hand over each event as it comes, not when the response ends.
            var seen: [TransferDocument] = []
            for try await event in try await payer.transferEvents(id: created.id) {
                let document = try JSONDecoder().decode(TransferDocument.self, from: Data(event.data.utf8))
                seen.append(document)
                if document.status == .authorizationRequired {
                    _ = try await payer.cancelTransfer(id: created.id)
                }
            }
            #expect(
                seen.map(\.sequence) == Array(seen.map(\.sequence).sorted())
                    && Set(seen.map(\.sequence)).count == seen.count)
            #expect(seen.contains { $0.status == .authorizationRequired })
            #expect(seen.last?.status == .cancelled, "the stream ended before the final version: \(seen.map(\.status))")
            #expect(try await payer.wallet().balance == 10_000)
        }
    }
}
