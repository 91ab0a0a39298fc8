import CountersignAPI
import CountersignClient
import CountersignCore
import Synchronization
import Testing

/// The four payment controllers wired to one scripted transport, as an app wires them.
struct PaymentFlow {
    let transport = ScriptedTransport()
    let initiate: PaymentInitiateController
    let details: PaymentDetailsController
    let verdict: PaymentVerdictController
    let finalize: PaymentFinalizeController

    init(
        authenticator: FakeAuthenticator = FakeAuthenticator(), signer: FakeSigner = FakeSigner(),
        reconnectAttempts: Int = 2
    ) {
        let repository = Fixture.repository(transport, attempts: reconnectAttempts)
        initiate = PaymentInitiateController(repository: repository)
        details = PaymentDetailsController(repository: repository)
        verdict = PaymentVerdictController(repository: repository, authenticator: authenticator, signer: signer)
        finalize = PaymentFinalizeController(client: repository.client, screens: [initiate, details, verdict])
    }

    /// Seed step 1–7 for a payer who agrees: create, wait for the quote, show it, proceed.
    func agreeToQuote(sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransferDocument {
        transport.expectCreate()
        transport.expectEvents(Fixture.upToQuote)
        let quoted = try #require(await initiate.submit(Fixture.request), sourceLocation: sourceLocation)
        #expect(await details.present(quoted), sourceLocation: sourceLocation)
        guard case .verdict(let document) = await details.choose(proceed: true) else {
            Issue.record("the payer agreed, yet the flow did not go on to the verdict", sourceLocation: sourceLocation)
            return quoted
        }
        return document
    }

    /// Expects `POST /transfers/tr_1/<action>` answered with `status` and `json`.
    func expectCommand(
        _ action: String, status: Int = 200, json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        transport.expect(
            "POST", "/transfers/\(Fixture.transferId)/\(action)", status: status, json: json,
            sourceLocation: sourceLocation)
    }

    /// Expects the wallet refresh of the dashboard.
    func expectWallet() {
        transport.expect("GET", "/user/wallet", json: #"{"balance":89946,"cashback":0,"currency":"NGN"}"#)
    }
}

/// Waits, up to about five seconds, until `condition` holds; cancellation and stream clean-up run on other tasks.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Every state a screen moved through, in order.
final class StateRecorder<State: Sendable>: Sendable {
    private let states = Log<State>()

    init(_ screen: ScreenState<State>) {
        screen.onChange { [states] state in states.append(state) }
    }

    var recorded: [State] { states.all }
}
