import CountersignAPI
import CountersignClient
import CountersignCore
import Testing

@Suite("Payment verdict: every way step 8 onwards can end")
struct PaymentVerdictTests {
    static let quoted = Fixture.document(.authorizationRequired, 3)
    static let authorized = Fixture.json(Fixture.document(.authorized, 4))

    @Test(
        "local auth fails or is cancelled (step 17): the transfer is cancelled, nothing is signed",
        arguments: [LocalAuthError.failed, .cancelled, .notAvailable])
    func localAuthFails(error: LocalAuthError) async {
        let flow = PaymentFlow(authenticator: FakeAuthenticator(.failure(error)))
        flow.expectCommand("cancel", json: Fixture.json(Fixture.document(.cancelled, 4)))
        #expect(await flow.verdict.authorize(Self.quoted) == .abandoned(transferId: "tr_1", error))
        flow.transport.verifyAllUsed()
    }

    @Test("the device refuses to sign a challenge that is not the quote's: cancelled, security error shown")
    func challengeMismatch() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.devicePIN)), signer: FakeSigner(.failure(.challengeMismatch)))
        flow.expectCommand("cancel", json: Fixture.json(Fixture.document(.cancelled, 4)))
        #expect(await flow.verdict.authorize(Self.quoted) == .securityError(transferId: "tr_1", .challengeMismatch))
        flow.transport.verifyAllUsed()
    }

    @Test("verification fails (401 authorization_failed): FAILED is shown with the server's reason")
    func verificationFails() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.expectCommand(
            "authorization", status: 401,
            json: #"{"error":{"code":"authorization_failed","message":"The signature does not verify."}}"#)
        let state = await flow.verdict.authorize(Self.quoted)
        #expect(
            state
                == .failed(
                    transferId: "tr_1",
                    reason: TransferFailure(code: "authorization_failed", message: "The signature does not verify.")))
        flow.transport.verifyAllUsed()
    }

    @Test("quote expired (409 quote_expired): EXPIRED is shown")
    func quoteExpired() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.expectCommand(
            "authorization", status: 409, json: #"{"error":{"code":"quote_expired","message":"The quote lapsed."}}"#)
        #expect(await flow.verdict.authorize(Self.quoted) == .expired(transferId: "tr_1"))
        flow.transport.verifyAllUsed()
    }

    @Test("payment locked (423): the wait is shown")
    func locked() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.expectCommand(
            "authorization", status: 423,
            json: #"{"error":{"code":"payment_locked","message":"Locked.","retryAfter":600}}"#)
        #expect(await flow.verdict.authorize(Self.quoted) == .locked(transferId: "tr_1", retryAfter: 600))
        flow.transport.verifyAllUsed()
    }

    @Test("a FAILED verdict on the stream after AUTHORIZED shows the server's error")
    func failedAfterAuthorized() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        let failure = TransferFailure(code: "insufficient_funds", message: "Top up first.")
        flow.expectCommand("authorization", json: Self.authorized)
        flow.transport.expectEvents([Fixture.document(.failed, 5, error: failure)])
        #expect(await flow.verdict.authorize(Self.quoted) == .failed(transferId: "tr_1", reason: failure))
        flow.transport.verifyAllUsed()
    }

    @Test("network lost mid-flow: the stream reconnects with Last-Event-ID and the verdict arrives without a gap")
    func reconnects() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.expectCommand("authorization", json: Self.authorized)
        flow.transport.expectEvents([], end: .drop)
        flow.transport.expectNoAnswer("GET", "/transfers/tr_1/events")
        // The server replays from Last-Event-ID 4: version 4 again would be skipped, 5 is the verdict.
        flow.transport.expectEvents([Fixture.document(.authorized, 4), Fixture.document(.success, 5)])
        #expect(await flow.verdict.authorize(Self.quoted) == .succeeded(Fixture.document(.success, 5)))
        #expect(flow.transport.requests.dropFirst().map { $0.header("Last-Event-ID") } == ["4", "4", "4"])
        flow.transport.verifyAllUsed()
    }

    @Test("the authorization's answer is lost: the stream from the start tells the verdict")
    func authorizationAnswerLost() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.transport.expectNoAnswer("POST", "/transfers/tr_1/authorization")
        flow.transport.expectEvents([Fixture.document(.authorized, 4), Fixture.document(.success, 5)])
        #expect(await flow.verdict.authorize(Self.quoted) == .succeeded(Fixture.document(.success, 5)))
        #expect(flow.transport.requests[1].header("Last-Event-ID") == nil)
        flow.transport.verifyAllUsed()
    }

    @Test("reconnecting exhausted: status unknown with the transfer id, never success or failure")
    func exhausted() async {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)),
            reconnectAttempts: 2)
        flow.expectCommand("authorization", json: Self.authorized)
        flow.transport.expectEvents([], end: .drop)
        flow.transport.expectNoAnswer("GET", "/transfers/tr_1/events")
        flow.transport.expectNoAnswer("GET", "/transfers/tr_1/events")
        #expect(await flow.verdict.authorize(Self.quoted) == .statusUnknown(transferId: "tr_1"))
        flow.transport.verifyAllUsed()
    }
}
