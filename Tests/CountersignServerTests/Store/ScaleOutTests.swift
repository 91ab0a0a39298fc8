import AsyncHTTPClient
import CountersignAPI
import CountersignClient
import CountersignCore
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// Two `countersign serve` processes on one PostgreSQL database behave as one service: a change
/// committed through one reaches the other's event streams (LISTEN/NOTIFY), the background work
/// of both is done once per transfer (FOR UPDATE SKIP LOCKED, version-guarded steps), and one
/// assertion sent to both pays once.
@Suite("Scale-out on PostgreSQL", .serialized)
struct ScaleOutTests {
    @Test(
        "two processes: streams see each other's changes; every step and every payment happens once",
        arguments: TestEngines.all.filter { $0 == .postgres })
    func twoProcesses(engine: DatabaseEngine) async throws {
        try await TestDatabase.withFreshPostgres { url in
            let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-scale-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
            // Streams re-read the store only every 15 s on their own (the keep-alive bound), so a change
            // made through the other process that arrives within 10 s came by NOTIFY. A process that
            // fails to start, or a failure below, leaves no child behind: `ServeProcess` ends its
            // process when it is released.
            try await withHTTPClient { http in
                let a = try await ServeProcess(
                    databaseURL: url, dataDirectory: dataDirectory, http: http,
                    extra: ["--stream-fallback-seconds", "60"])
                let b = try await ServeProcess(
                    databaseURL: url, dataDirectory: dataDirectory, http: http,
                    extra: ["--stream-fallback-seconds", "60"])
                do {
                    try await Self.exercise(a: a.client, b: b.client, databaseURL: url, dataDirectory: dataDirectory)
                } catch {
                    await a.stop()
                    await b.stop()
                    throw error
                }
                #expect(await a.stop() == 0, "\(a.output)")
                #expect(await b.stop() == 0, "\(b.output)")
            }
        }
    }

    static func exercise(a: APIClient, b: APIClient, databaseURL: String, dataDirectory: String) async throws {
        let payerPhone = TestPhones.next()
        let payeePhone = TestPhones.next()
        let payer = try await EnrolledUser.enroll(
            over: a.transport(), phone: payerPhone, name: "Ada", origin: LiveServer.origin)
        let payeeSignup = try await b.post(
            "/auth/signup", try await b.signupBody(phone: payeePhone, name: "Bola", pin: "4827")
        ).decode(SessionResponse.self)
        let device = payer.device
        let funded = try await CommandLineTests.run([
            "wallet", "fund", "--phone", payerPhone, "--amount", "10000", "--data-dir", dataDirectory,
            "--database-url", databaseURL,
        ])
        try #require(funded.status == 0, "\(funded.output)")

        // Twelve transfers, created through both processes; both workers take them on.
        var ids: [String] = []
        for index in 0..<12 {
            let client = index.isMultiple(of: 2) ? a : b
            let created = try await client.post(
                "/transfers", CreateTransferRequest(payeePhone: payeePhone, amount: 10_000, currency: "NGN"),
                token: payer.sessionToken, headers: [("Idempotency-Key", "scale-\(index)")])
            try #require(created.status == 201, "\(created.text)")
            ids.append(try created.decode(TransferDocument.self).id)
        }
        var quoted: [TransferDocument] = []
        for id in ids {
            quoted.append(
                try await awaitDocument(a, token: payer.sessionToken, id: id) { $0.status == .authorizationRequired })
        }

        // A stream on B; the authorization goes through A.
        let stream = try await EventStreamClient.open(
            b, path: "/transfers/\(ids[0])/events", token: payer.sessionToken, lastEventID: "3")
        defer { stream.close() }
        let started = ContinuousClock.now
        let authorized = try await a.post(
            "/transfers/\(ids[0])/authorization", assertion(device, quoted[0]), token: payer.sessionToken)
        #expect(authorized.status == 200, "\(authorized.text)")
        let seen = await stream.wait(timeout: .seconds(10)) { $0.contains { (try? $0.document().status) == .success } }
        #expect(try seen.map { try $0.document().status } == [.authorized, .success], "B's stream got A's change")
        #expect(ContinuousClock.now - started < .seconds(10))

        // The rest, authorized alternately through both processes.
        for (index, document) in quoted.enumerated().dropFirst() {
            let client = index.isMultiple(of: 2) ? a : b
            let response = try await client.post(
                "/transfers/\(document.id)/authorization", assertion(device, document), token: payer.sessionToken)
            #expect(response.status == 200, "\(response.text)")
        }
        for id in ids {
            // Each transfer's full history, read from B: exactly five versions, one per step.
            let history = try await EventStreamClient.open(
                b, path: "/transfers/\(id)/events", token: payer.sessionToken, lastEventID: "0")
            let events = await history.wait { $0.count >= 5 }
            history.close()
            #expect(events.map(\.id) == [1, 2, 3, 4, 5])
            #expect(
                try events.map { try $0.document().status } == [
                    .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized, .success,
                ])
        }
        // Each payment moved once: 12 × (10,000 + 1,050 fees).
        let payeeSession = try await a.post(
            "/auth/login", LoginRequest(phone: payeePhone, pin: "4827", deviceToken: payeeSignup.deviceToken)
        ).decode(SessionResponse.self)
        #expect(
            try await a.get("/user/wallet", token: payer.sessionToken).decode(WalletResponse.self).balance == 1_000_000
                - 12 * 11_050)
        #expect(
            try await b.get("/user/wallet", token: payeeSession.sessionToken).decode(WalletResponse.self).balance == 12
                * 10_000)

        // A two-call top-up: options from A, the same assertion sent to both processes at once. One
        // pays; the other finds the challenge spent, and counts nothing against the payer.
        let options = try await a.get(
            "/biometric/auth/options?amount=500&productCode=AIRTIME_MTN&recipientPhone=08012345678&supplierSlug=mtn",
            token: payer.sessionToken
        ).decode(AuthenticationOptionsResponse.self)
        let topUp = TopUpRequest(
            amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: "mtn",
            assertion: try APIClient.assertion(device, challenge: options.challenge))
        async let throughA = a.post("/user/topup", topUp, token: payer.sessionToken)
        async let throughB = b.post("/user/topup", topUp, token: payer.sessionToken)
        let answers = try await [throughA, throughB]
        #expect(answers.map(\.status).sorted() == [200, 401], "\(answers.map(\.text))")
        #expect(answers.compactMap(\.errorCode) == ["invalid_challenge"], "\(answers.map(\.text))")
        #expect(
            try await b.get("/user/wallet", token: payer.sessionToken).decode(WalletResponse.self).balance == 1_000_000
                - 12 * 11_050 - 500)
    }

    static func assertion(_ device: DeviceAuthenticator, _ document: TransferDocument) throws
        -> AuthenticationResponseJSON
    {
        let challenge = try #require(document.challenge)
        return try APIClient.assertion(device, challenge: challenge.challenge)
    }

    static func awaitDocument(_ client: APIClient, token: String, id: String, until done: (TransferDocument) -> Bool)
        async throws -> TransferDocument
    {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let document = try await client.get("/transfers/\(id)", token: token).decode(TransferDocument.self)
            if done(document) || ContinuousClock.now >= deadline { return document }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}
