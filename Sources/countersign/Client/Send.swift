import ArgumentParser
import CountersignAPI
import CountersignClient

/// `countersign send --to P --amount N`: a transfer through the seed's screens. Exit 0 on SUCCESS.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send money to another user, after showing the fees (client).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var auth: LocalAuthOptions

    @Option(help: "The payee's phone number.") var to: String
    @Option(help: "What the payee receives, in naira (1000 or 1000.50); fees come on top.") var amount: AmountArgument
    @Option(help: "A note for the payee (140 characters at most).") var note: String?
    @Option(help: "The currency of the wallets.") var currency = "NGN"
    @Flag(help: "Answer yes to \"Continue?\" (accept the fees).") var yes = false
    @Flag(help: "Answer no to \"Continue?\" (decline the fees).") var no = false

    func validate() throws {
        if yes && no { throw ValidationError("--yes and --no cannot both be given") }
        _ = try amount.minor(in: currency)
    }

    func run() async throws {
        let (profile, _, api) = try client.loggedIn()
        let preset: Bool? = yes ? true : (no ? false : nil)
        try TerminalInput.require(preset, flag: "--yes or --no", question: "Continue?")
        if preset != false { try TerminalInput.require(auth.localPIN, flag: "--local-pin", question: "Local PIN") }
        let (authenticator, signer) = try auth.make(profile: profile, devicePINFallback: true)
        let request = CreateTransferRequest(
            payeePhone: to, amount: try amount.minor(in: currency), currency: currency, note: note)
        let ending = await TerminalPayments.transfer(
            api: api, authenticator: authenticator, signer: signer, request: request
        ) { _ in
            TerminalInput.confirm("Continue?", preset: preset)
        }
        LocalAuthOptions.recordSignCount(signer, in: profile)
        if !ending.outcome.succeeded { throw ExitCode(1) }
    }
}
