import CountersignAPI
import CountersignClient
import Testing

@Suite("API client")
struct CountersignAPIClientTests {
    @Test("login keeps the session token, sends it as a bearer token, and logout forgets it")
    func sessionToken() async throws {
        let transport = ScriptedTransport()
        transport.expect("POST", "/auth/login", json: #"{"userId":"u1","sessionToken":"s3cret"}"#)
        transport.expect("GET", "/user/wallet", json: #"{"balance":500,"cashback":0,"currency":"NGN"}"#)
        transport.expect("POST", "/auth/logout", status: 204, json: "")
        let client = CountersignAPIClient(transport: transport)
        try await client.login(LoginRequest(phone: "08012345678", pin: "1234"))
        #expect(client.sessionToken == "s3cret")
        #expect(try await client.wallet() == WalletResponse(balance: 500, cashback: 0, currency: "NGN"))
        try await client.logout()
        #expect(client.sessionToken == nil)
        let sent = transport.requests
        #expect(sent[0].header("authorization") == nil)
        #expect(sent[1].header("authorization") == "Bearer s3cret")
        #expect(sent[2].header("authorization") == "Bearer s3cret")
        transport.verifyAllUsed()
    }

    @Test("an error body becomes .api with its code, and a 423 carries retryAfter from the header")
    func apiErrors() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "GET", "/transfers/tr_9", status: 404,
            json: #"{"error":{"code":"not_found","message":"No such transfer."}}"#)
        transport.expect(
            "POST", "/biometric/auth/verify", status: 423,
            json: #"{"verified":false,"message":"Locked.","code":"payment_locked"}"#, headers: ["Retry-After": "900"])
        transport.expect("GET", "/user/wallet", status: 502, json: "<html>bad gateway</html>")
        let client = Fixture.client(transport)
        await #expect(
            throws: CountersignClientError.api(
                status: 404, code: "not_found", message: "No such transfer.", retryAfter: nil)
        ) {
            try await client.transfer(id: "tr_9")
        }
        await #expect(
            throws: CountersignClientError.api(status: 423, code: "payment_locked", message: "Locked.", retryAfter: 900)
        ) {
            try await client.verifyAuthentication(Fixture.assertion)
        }
        await #expect(
            throws: CountersignClientError.api(
                status: 502, code: "http_502", message: "<html>bad gateway</html>", retryAfter: nil)
        ) {
            try await client.wallet()
        }
        transport.verifyAllUsed()
    }

    @Test("a 2xx body that is not the promised shape is a decoding error")
    func decodingError() async throws {
        let transport = ScriptedTransport()
        transport.expect("GET", "/user/wallet", json: #"{"balance":"lots"}"#)
        let client = Fixture.client(transport)
        let error = await #expect(throws: CountersignClientError.self) { try await client.wallet() }
        guard case .decoding? = error else {
            Issue.record("expected .decoding, got \(String(describing: error))")
            return
        }
    }

    @Test("a create without an answer is sent again under the same Idempotency-Key")
    func createRetriesWithSameKey() async throws {
        let transport = ScriptedTransport()
        transport.expectNoAnswer("POST", "/transfers")
        transport.expect(
            "POST", "/transfers", json: Fixture.json(Fixture.document(.pendingPayeeLookup, 1)),
            headers: ["Idempotent-Replayed": "true"])
        let keys = KeySource()
        let client = CountersignAPIClient(transport: transport, sessionToken: "tok", idempotencyKey: { keys.next() })
        let document = try await client.createTransfer(Fixture.request)
        #expect(document.id == Fixture.transferId)
        let sent = transport.requests
        #expect(sent.map { $0.header("Idempotency-Key") } == ["key-1", "key-1"])
        #expect(sent[0].body == sent[1].body)
        transport.verifyAllUsed()
    }

    @Test("each logical create gets a fresh key, and a refusal is not retried")
    func freshKeyPerCreate() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "POST", "/transfers", status: 201, json: Fixture.json(Fixture.document(.pendingPayeeLookup, 1)))
        transport.expect(
            "POST", "/transfers", status: 422, json: #"{"error":{"code":"self_transfer","message":"That is you."}}"#)
        let keys = KeySource()
        let client = CountersignAPIClient(transport: transport, sessionToken: "tok", idempotencyKey: { keys.next() })
        _ = try await client.createTransfer(Fixture.request)
        await #expect(
            throws: CountersignClientError.api(
                status: 422, code: "self_transfer", message: "That is you.", retryAfter: nil)
        ) {
            try await client.createTransfer(Fixture.request)
        }
        #expect(transport.requests.map { $0.header("Idempotency-Key") } == ["key-1", "key-2"])
        transport.verifyAllUsed()
    }

    @Test("query values are percent-encoded: a + in a phone number survives")
    func queryEncoding() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "GET",
            "/biometric/auth/options?amount=500&productCode=AIRTIME_MTN&recipientPhone=%2B234%20801&supplierSlug=mtn",
            status: 422,
            json: #"{"error":{"code":"no_registered_credential","message":"Register a device."}}"#)
        let client = Fixture.client(transport)
        await #expect(throws: CountersignClientError.self) {
            try await client.authenticationOptions(
                AuthenticationOptionsRequest(
                    amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "+234 801", supplierSlug: "mtn"))
        }
        transport.verifyAllUsed()
    }
}
