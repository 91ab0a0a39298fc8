import CountersignAPI
import CountersignClient
import CountersignCore
import Testing

@Suite("Payment initiate")
struct PaymentInitiateTests {
    @Test(
        "bad input is caught before any request",
        arguments: [
            (
                CreateTransferRequest(payeePhone: "12ab", amount: 100, currency: "NGN"),
                PaymentInitiateController.InputProblem.payeePhone
            ),
            (CreateTransferRequest(payeePhone: Fixture.payee, amount: 0, currency: "NGN"), .amount),
            (CreateTransferRequest(payeePhone: Fixture.payee, amount: 100, currency: "XXX"), .currency),
            (
                CreateTransferRequest(
                    payeePhone: Fixture.payee, amount: 100, currency: "NGN", note: String(repeating: "a", count: 141)),
                .note
            ),
        ])
    func invalidInput(request: CreateTransferRequest, problem: PaymentInitiateController.InputProblem) async {
        let flow = PaymentFlow()
        #expect(await flow.initiate.submit(request) == nil)
        #expect(flow.initiate.screen.value == .invalid(problem))
        #expect(flow.transport.requests.isEmpty)
    }

    @Test("values() gives the current state, then each change")
    func stateStream() async {
        let flow = PaymentFlow()
        var states = flow.initiate.screen.values().makeAsyncIterator()
        #expect(await states.next() == .editing)
        _ = await flow.initiate.submit(CreateTransferRequest(payeePhone: "x", amount: 1, currency: "NGN"))
        #expect(await states.next() == .invalid(.payeePhone))
    }

    @Test("a refusal to create is shown with its code")
    func refused() async {
        let flow = PaymentFlow()
        flow.transport.expect(
            "POST", "/transfers", status: 422,
            json: #"{"error":{"code":"no_registered_credential","message":"Register a device first."}}"#)
        #expect(await flow.initiate.submit(Fixture.request) == nil)
        #expect(
            flow.initiate.screen.value
                == .refused(code: "no_registered_credential", message: "Register a device first."))
        flow.transport.verifyAllUsed()
    }

    @Test("a transfer that ends before its quote (payee not found) is shown as ended")
    func endsBeforeQuote() async {
        let flow = PaymentFlow()
        let failed = Fixture.document(
            .failed, 2, error: TransferFailure(code: "payee_not_found", message: "No such payee."))
        flow.transport.expectCreate()
        flow.transport.expectEvents([Fixture.document(.pendingPayeeLookup, 1), failed])
        #expect(await flow.initiate.submit(Fixture.request) == nil)
        #expect(flow.initiate.screen.value == .ended(failed))
        flow.transport.verifyAllUsed()
    }

    @Test("no answer to the create, even after retries under one key: status unknown, no transfer id")
    func unreachable() async {
        let flow = PaymentFlow()
        for _ in 0..<3 { flow.transport.expectNoAnswer("POST", "/transfers") }
        #expect(await flow.initiate.submit(Fixture.request) == nil)
        #expect(flow.initiate.screen.value == .statusUnknown(transferId: nil))
        #expect(Set(flow.transport.requests.map { $0.header("Idempotency-Key") }) == ["key-1"])
        flow.transport.verifyAllUsed()
    }

    @Test("the stream lost while waiting for the quote: status unknown with the transfer id")
    func lostWhileWaiting() async {
        let flow = PaymentFlow(reconnectAttempts: 1)
        flow.transport.expectCreate()
        flow.transport.expectEvents([Fixture.document(.pendingPayeeLookup, 1)], end: .drop)
        flow.transport.expectNoAnswer("GET", "/transfers/tr_1/events")
        #expect(await flow.initiate.submit(Fixture.request) == nil)
        #expect(flow.initiate.screen.value == .statusUnknown(transferId: "tr_1"))
        flow.transport.verifyAllUsed()
    }
}
