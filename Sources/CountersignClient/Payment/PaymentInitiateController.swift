import CountersignAPI
import CountersignCore

/// The first step of a transfer: checks what the payer typed, creates the transfer and waits while
/// the server finds the payee and quotes the fees (the seed's `PaymentInitiateController`).
public final class PaymentInitiateController: PaymentScreen {
    /// Which field the payer must correct.
    public enum InputProblem: String, Sendable, Equatable {
        /// Not 7 to 15 digits with an optional leading `+`.
        case payeePhone
        /// Not a positive number of minor units.
        case amount
        /// Not a currency this build knows.
        case currency
        /// Longer than 140 characters.
        case note
    }

    /// What the screen shows.
    public enum State: Sendable, Equatable {
        /// The form, waiting for input.
        case editing
        /// The form, with the field to correct.
        case invalid(InputProblem)
        /// The transfer is being created.
        case creating
        /// The server is looking up the payee or computing the fees.
        case waiting(TransferDocument)
        /// The quote is ready; the details screen takes over.
        case quoteReady(TransferDocument)
        /// The transfer ended before a quote, e.g. `FAILED` with `payee_not_found`.
        case ended(TransferDocument)
        /// The server refused to create it, e.g. `self_transfer`, `no_registered_credential`.
        case refused(code: String, message: String)
        /// The server could not be reached, so whether the transfer exists or where it stands is not
        /// known; `transferId` is set once the server gave one.
        case statusUnknown(transferId: String?)
    }

    /// What the screen shows, for a view to render.
    public let screen = ScreenState<State>(.editing)
    private let repository: TransactionRepository

    /// A controller creating transfers through `repository`.
    public init(repository: TransactionRepository) {
        self.repository = repository
    }

    /// Validates `request`, creates the transfer and waits for its quote. Returns the
    /// `AUTHORIZATION_REQUIRED` document to hand to `PaymentDetailsController`, or nil when the
    /// flow stops here (the screen's state says why).
    public func submit(_ request: CreateTransferRequest) async -> TransferDocument? {
        if let problem = Self.problem(in: request) {
            screen.set(.invalid(problem))
            return nil
        }
        await screen.run { [screen, repository] in
            screen.set(.creating)
            var transferId: String?
            do {
                let created = try await repository.create(request)
                transferId = created.id
                screen.set(.waiting(created))
                for try await document in repository.documents(created.id) {
                    if document.status == .authorizationRequired {
                        screen.set(.quoteReady(document))
                        return
                    }
                    screen.set(document.status.isFinal ? .ended(document) : .waiting(document))
                }
            } catch let CountersignClientError.api(_, code, message, _, _) where transferId == nil {
                screen.set(.refused(code: code, message: message))
            } catch {
                screen.set(.statusUnknown(transferId: transferId))
            }
        }
        if case .quoteReady(let document) = screen.value { return document }
        return nil
    }

    /// Returns the form to its blank state, stopping any wait.
    public func reset() { screen.reset() }

    /// The first field of `request` the server would refuse, if any.
    static func problem(in request: CreateTransferRequest) -> InputProblem? {
        if PhoneNumber(request.payeePhone) == nil { return .payeePhone }
        if request.amount <= 0 { return .amount }
        if Currency.known[request.currency] == nil { return .currency }
        if let note = request.note, note.count > 140 { return .note }
        return nil
    }
}
