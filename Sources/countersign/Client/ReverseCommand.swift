import ArgumentParser
import CountersignAPI
import CountersignClient

/// `countersign reverse transfer|funding ID --reason R [--pin PIN]`: an operator, signed in, undoes a
/// completed transfer (the payee gives the amount back, the payer gets the amount and fees back) or a
/// funding (taken back from the wallet it credited), with a new ledger entry, once (client).
struct ReverseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse", abstract: "Reverse a completed transfer or a funding, as an operator (client).")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case transfer, funding
    }

    @OptionGroup var client: ClientOptions
    @Argument(help: "transfer or funding.") var kind: Kind
    @Argument(help: "The transfer id, or the funding's transaction id.") var id: String
    @Option(help: "Why; recorded with the reversal.") var reason: String
    @Option(help: "Your own account PIN (asked if not given).") var pin: String?

    func run() async throws {
        let (_, _, api) = try client.loggedIn()
        try TerminalInput.require(pin, flag: "--pin", question: "Your account PIN")
        guard let pin = pin ?? TerminalInput.secret("Your account PIN: ") else {
            throw CommandFailure("no PIN given; nothing was reversed")
        }
        let body = OperatorReverseRequest(pin: pin, reason: reason)
        let reversal = try await Marketplace.call {
            switch kind {
            case .transfer: try await api.operatorReverseTransfer(id: id, body)
            case .funding: try await api.operatorReverseFunding(id: id, body)
            }
        }
        print(
            "Reversed \(kind.rawValue) \(reversal.originalId) (\(reversal.id)): \(Formatting.money(reversal.amount, reversal.currency)) back."
        )
    }
}
