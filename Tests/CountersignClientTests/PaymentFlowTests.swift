import CountersignAPI
import CountersignClient
import CountersignCore
import Testing

@Suite("Payment flow: the seed's 17 steps end to end")
struct PaymentFlowTests {
    @Test("happy path: quote, agree, local auth, sign, authorize, SUCCESS on the stream, dashboard")
    func happyPath() async throws {
        let signer = FakeSigner(.success(Fixture.assertion))
        let flow = PaymentFlow(authenticator: FakeAuthenticator(.success(.biometric)), signer: signer)
        let initiateStates = StateRecorder(flow.initiate.screen)
        let document = try await flow.agreeToQuote()
        #expect(initiateStates.recorded.count == 5) // creating, waiting ×3 (1, 1, 2), quote ready
        #expect(initiateStates.recorded.last == .quoteReady(Fixture.document(.authorizationRequired, 3)))
        #expect(flow.details.screen.value == .reviewing(quote: Fixture.quote, payeeName: "Ada"))

        let verdictStates = StateRecorder(flow.verdict.screen)
        flow.expectCommand("authorization", json: Fixture.json(Fixture.document(.authorized, 4)))
        flow.transport.expectEvents([Fixture.document(.success, 5)])
        let verdict = await flow.verdict.authorize(document)
        #expect(verdict == .succeeded(Fixture.document(.success, 5)))
        #expect(
            verdictStates.recorded == [
                .authenticating, .signing, .authorizing(transferId: "tr_1"), .succeeded(Fixture.document(.success, 5)),
            ])
        #expect(signer.challenges == [Fixture.challenge.challenge])
        let authorization = flow.transport.requests[2]
        #expect(
            authorization.body.map { String(decoding: $0, as: UTF8.self) }?.contains("\"signature\":\"AA\"") == true)
        #expect(flow.transport.requests[3].header("Last-Event-ID") == "4")

        flow.expectWallet()
        #expect(
            await flow.finalize.finish() == .dashboard(WalletResponse(balance: 89946, cashback: 0, currency: "NGN")))
        #expect(flow.initiate.screen.value == .editing)
        #expect(flow.details.screen.value == .idle)
        #expect(flow.verdict.screen.value == .idle)
        #expect(await eventually { flow.transport.openStreams == 0 })
        flow.transport.verifyAllUsed()
    }

    @Test("fees declined (step 16): the server declines, no local auth or signature, back to the dashboard")
    func feesDeclined() async throws {
        let flow = PaymentFlow()
        flow.transport.expectCreate()
        flow.transport.expectEvents(Fixture.upToQuote)
        let quoted = try #require(await flow.initiate.submit(Fixture.request))
        #expect(await flow.details.present(quoted))
        flow.expectCommand("decline", json: Fixture.json(Fixture.document(.declined, 4)))
        #expect(await flow.details.choose(proceed: false) == .dashboard)
        #expect(flow.details.screen.value == .declined(Fixture.document(.declined, 4)))
        flow.expectWallet()
        await flow.finalize.finish()
        // After the dashboard, the old quote can no longer be agreed to.
        #expect(await flow.details.choose(proceed: true) == .dashboard)
        flow.transport.verifyAllUsed()
    }

    @Test("a quote whose figures do not add up is never shown: the transfer is cancelled")
    func inconsistentQuote() async throws {
        var quote = Fixture.quote
        quote.total += 1
        let flow = PaymentFlow()
        flow.expectCommand("cancel", json: Fixture.json(Fixture.document(.cancelled, 4)))
        #expect(await flow.details.present(Fixture.document(.authorizationRequired, 3, quote: quote)) == false)
        #expect(flow.details.screen.value == .invalidQuote(transferId: "tr_1"))
        #expect(await flow.details.choose(proceed: true) == .dashboard)
        flow.transport.verifyAllUsed()
    }

    @Test("a decline the server does not record is shown as such, not as declined")
    func declineFails() async throws {
        let flow = PaymentFlow()
        #expect(await flow.details.present(Fixture.document(.authorizationRequired, 3)))
        flow.expectCommand(
            "decline", status: 409, json: #"{"error":{"code":"invalid_state","message":"Already expired."}}"#)
        #expect(await flow.details.choose(proceed: false) == .dashboard)
        #expect(
            flow.details.screen.value
                == .declineFailed(
                    transferId: "tr_1",
                    .api(status: 409, code: "invalid_state", message: "Already expired.", retryAfter: nil)))
        flow.transport.verifyAllUsed()
    }

    @Test("leaving for the dashboard while the verdict is awaited closes the stream and clears the screen for good")
    func leaveWhileWaiting() async throws {
        let flow = PaymentFlow(
            authenticator: FakeAuthenticator(.success(.biometric)), signer: FakeSigner(.success(Fixture.assertion)))
        flow.expectCommand("authorization", json: Fixture.json(Fixture.document(.authorized, 4)))
        flow.transport.expectEvents([])
        let verdict = Task { await flow.verdict.authorize(Fixture.document(.authorizationRequired, 3)) }
        #expect(await eventually { flow.transport.openStreams == 1 })
        flow.expectWallet()
        await flow.finalize.finish()
        #expect(await verdict.value == .idle)
        #expect(await eventually { flow.transport.openStreams == 0 })
        // The stopped wait ends as "status unknown" internally, but must not put that on the screen.
        try await Task.sleep(for: .milliseconds(20))
        #expect(flow.verdict.screen.value == .idle)
        flow.transport.verifyAllUsed()
    }

    @Test("the dashboard still comes back when the wallet cannot be read")
    func walletUnavailable() async {
        let flow = PaymentFlow()
        flow.transport.expectNoAnswer("GET", "/user/wallet")
        guard case .dashboardWithoutWallet(.transport) = await flow.finalize.finish() else {
            Issue.record("expected the dashboard without a wallet")
            return
        }
        flow.transport.verifyAllUsed()
    }
}
