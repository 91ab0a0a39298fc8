import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore

extension AirtimeNetwork: ExpressibleByArgument {}

/// `countersign airtime --to P --amount N --network mtn`: the seed's biometric purchase, with the
/// account PIN as fallback; the signature goes with the top-up (two calls) unless `--three-calls`.
struct AirtimeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "airtime", abstract: "Buy airtime by biometric, or by account PIN (client).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var auth: LocalAuthOptions

    @Option(help: "The recipient's phone number.") var to: String
    @Option(help: "The airtime's value in naira, e.g. 500 or 500.50.") var amount: AmountArgument
    @Option(help: "mtn, airtel, glo or 9mobile.") var network: AirtimeNetwork
    @Option(help: "The account PIN, used when the biometric path cannot finish (asked if not given).") var pin: String?
    @Flag(
        name: .customLong("three-calls"),
        help: "Exchange the signature for a verification token before paying (the seed's flow), not with the top-up.")
    var threeCalls = false

    func validate() throws { _ = try minorUnits() }

    /// The amount in kobo, within what one top-up may be.
    func minorUnits() throws -> Int64 {
        try amount.minor(in: Currency.ngn.code, within: TopUpLimits.minimumAmount...TopUpLimits.maximumAmount)
    }

    func run() async throws {
        let (profile, _, api) = try client.loggedIn()
        if auth.biometric == .approve {
            try TerminalInput.require(auth.localPIN, flag: "--local-pin", question: "Local PIN")
        }
        let (authenticator, signer) = try auth.make(profile: profile, devicePINFallback: false)
        let intent = AuthenticationOptionsRequest(
            amount: try minorUnits(), productCode: network.productCode, recipientPhone: to,
            supplierSlug: network.rawValue)
        let preset = pin
        let receipt: AirtimePayment.Receipt?
        do {
            receipt = try await TerminalPayments.airtime(
                api: api, authenticator: authenticator, signer: signer, intent: intent,
                calls: threeCalls ? .three : .two
            ) { _ in
                if let preset { return preset }
                if !TerminalInput.isInteractive { print("no terminal to ask for the account PIN; pass --pin") }
                return TerminalInput.secret("Account PIN")
            }
        } catch {
            LocalAuthOptions.recordSignCount(signer, in: profile)
            throw CommandFailure(Formatting.error(error))
        }
        LocalAuthOptions.recordSignCount(signer, in: profile)
        guard let receipt, receipt.topUp.success else { throw ExitCode(1) }
    }
}
