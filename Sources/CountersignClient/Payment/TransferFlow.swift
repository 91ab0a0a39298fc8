import CountersignAPI
import CountersignCore

/// The seed's whole transfer, start to dashboard: `PaymentInitiateController` → `PaymentDetailsController`
/// → `PaymentVerdictController` → `PaymentFinalizeController`, wired as an app wires them.
///
/// A view subscribes to each controller's `screen` before calling `run`; the flow only decides
/// which screen comes next.
public struct TransferFlow: Sendable {
    /// Where a transfer stopped, with the state of the screen that ended it.
    public enum Outcome: Sendable, Equatable {
        /// It stopped before a quote: invalid input, a refusal, a failure, or no answer.
        case initiate(PaymentInitiateController.State)
        /// The quote was not offered (inconsistent) or the payer refused it.
        case details(PaymentDetailsController.State)
        /// The payer agreed; the verdict screen's final state (succeeded, failed, abandoned, …).
        case verdict(PaymentVerdictController.State)

        /// Whether the money moved.
        public var succeeded: Bool {
            if case .verdict(.succeeded) = self { true } else { false }
        }
    }

    /// How a run ended: the outcome and the dashboard the payer is back on.
    public struct Ending: Sendable, Equatable {
        /// Where the transfer stopped.
        public var outcome: Outcome
        /// The dashboard after `PaymentFinalizeController.finish()`.
        public var dashboard: PaymentFinalizeController.State
    }

    /// Seed steps 1–3: create, wait for the quote.
    public let initiate: PaymentInitiateController
    /// Seed steps 2–7 and 16: the fees and the payer's choice.
    public let details: PaymentDetailsController
    /// Seed steps 8–15 and 17: local authentication, signature, the server's verdict.
    public let verdict: PaymentVerdictController
    /// Seed steps 15–17: back to the dashboard.
    public let finalize: PaymentFinalizeController

    /// A flow over `repository`, proving presence with `authenticator` and signing with `signer`.
    public init(repository: TransactionRepository, authenticator: any LocalAuthenticator, signer: any TransactionSigner)
    {
        initiate = PaymentInitiateController(repository: repository)
        details = PaymentDetailsController(repository: repository)
        verdict = PaymentVerdictController(repository: repository, authenticator: authenticator, signer: signer)
        finalize = PaymentFinalizeController(client: repository.client, screens: [initiate, details, verdict])
    }

    /// Runs one transfer. `choose` is the payer's answer to the quote shown on the details screen
    /// (true: go on). Every path ends on the dashboard.
    public func run(_ request: CreateTransferRequest, choose: @Sendable (TransferQuote) async -> Bool) async -> Ending {
        let outcome = await stages(request, choose: choose)
        let dashboard = await finalize.finish()
        return Ending(outcome: outcome, dashboard: dashboard)
    }

    private func stages(_ request: CreateTransferRequest, choose: @Sendable (TransferQuote) async -> Bool) async
        -> Outcome
    {
        guard let quoted = await initiate.submit(request) else { return .initiate(initiate.screen.value) }
        guard await details.present(quoted), let quote = quoted.quote else { return .details(details.screen.value) }
        switch await details.choose(proceed: await choose(quote)) {
        case .dashboard:
            return .details(details.screen.value)
        case .verdict(let document):
            return .verdict(await verdict.authorize(document))
        }
    }
}
