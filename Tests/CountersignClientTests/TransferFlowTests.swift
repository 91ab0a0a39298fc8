import CountersignAPI
import CountersignClient
import CountersignCore
import Testing

@Suite("Transfer flow: the four controllers strung together")
struct TransferFlowTests {
    private let transport = ScriptedTransport()
    private let wallet = #"{"balance":89946,"cashback":0,"currency":"NGN"}"#

    private func flow(_ authenticator: FakeAuthenticator = FakeAuthenticator(), _ signer: FakeSigner = FakeSigner())
        -> TransferFlow
    {
        TransferFlow(repository: Fixture.repository(transport), authenticator: authenticator, signer: signer)
    }

    @Test("agreeing runs local auth, the signature and the verdict, then the dashboard")
    func agree() async {
        let signer = FakeSigner(.success(Fixture.assertion))
        let flow = flow(FakeAuthenticator(.success(.biometric)), signer)
        transport.expectCreate()
        transport.expectEvents(Fixture.upToQuote)
        transport.expect("POST", "/transfers/tr_1/authorization", json: Fixture.json(Fixture.document(.authorized, 4)))
        transport.expectEvents([Fixture.document(.success, 5)])
        transport.expect("GET", "/user/wallet", json: wallet)
        let shown = Log<TransferQuote>()
        let ending = await flow.run(Fixture.request) { quote in
            shown.append(quote)
            return true
        }
        #expect(shown.all == [Fixture.quote], "the payer chose on the quote the server sent")
        #expect(ending.outcome == .verdict(.succeeded(Fixture.document(.success, 5))))
        #expect(ending.outcome.succeeded)
        #expect(ending.dashboard == .dashboard(WalletResponse(balance: 89946, cashback: 0, currency: "NGN")))
        #expect(signer.challenges == [Fixture.challenge.challenge])
        #expect(flow.verdict.screen.value == .idle, "the dashboard cleared the payment screens")
        transport.verifyAllUsed()
    }

    @Test("refusing the fees declines on the server, with no local auth or signature")
    func decline() async {
        let flow = flow()
        transport.expectCreate()
        transport.expectEvents(Fixture.upToQuote)
        transport.expect("POST", "/transfers/tr_1/decline", json: Fixture.json(Fixture.document(.declined, 4)))
        transport.expect("GET", "/user/wallet", json: wallet)
        let ending = await flow.run(Fixture.request) { _ in false }
        #expect(ending.outcome == .details(.declined(Fixture.document(.declined, 4))))
        #expect(!ending.outcome.succeeded)
        transport.verifyAllUsed()
    }

    @Test("invalid input stops at the first screen without calling the server or asking the payer")
    func invalidInput() async {
        let flow = flow()
        transport.expect("GET", "/user/wallet", json: wallet)
        var request = Fixture.request
        request.amount = 0
        let ending = await flow.run(request) { _ in
            Issue.record("the payer was asked about a transfer that was never created")
            return true
        }
        #expect(ending.outcome == .initiate(.invalid(.amount)))
        transport.verifyAllUsed()
    }
}
