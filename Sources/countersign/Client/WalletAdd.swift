import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore
import CountersignServer
import Foundation

/// `countersign wallet add --amount 50 --currency EUR --method card`: adds money to one of your
/// wallets by card or bank through the payment provider. Exit 0 when the money is in, 2 when the
/// payment may still complete, 1 otherwise.
struct WalletAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add money to your wallet by card, iDEAL or Bancontact (client).")

    @OptionGroup var client: ClientOptions

    @Option(help: "How much, in units of the currency: 50 or 50.25.") var amount: AmountArgument
    @Option(help: "The wallet: NGN, EUR, … (default: your primary wallet).") var currency: String?
    @Option(help: "card, or ideal / bancontact for euros.") var method: PaymentMethodKind
    @Option(help: "The id of a saved card (pm_…), for --method card (default: your first saved card).")
    var card: String?
    @Option(
        help:
            "At the provider's page: ask (print the link, wait for Enter), authorize or fail (press the built-in simulator's button), abandon."
    )
    var redirect: TerminalRedirectHandler.Mode = .ask
    @Option(name: .customLong("return-url"), help: "Where the provider's page sends the payer back.")
    var returnURL: String?
    @Option(name: .customLong("poll-seconds"), help: "Seconds between polls of a pending payment (default 2).")
    var pollSeconds: Int = 2

    func validate() throws {
        guard (0...60).contains(pollSeconds) else { throw ValidationError("--poll-seconds must be between 0 and 60") }
        _ = try amount.minor(in: currency?.uppercased() ?? "NGN", within: 1...FundingService.maximumAmount)
    }

    func run() async throws {
        let (_, _, api) = try client.loggedIn()
        do {
            let wallet = try await api.wallet()
            let currency = self.currency?.uppercased() ?? wallet.currency
            let minor = try amount.minor(in: currency, within: 1...FundingService.maximumAmount)
            var paymentMethodId: String?
            if method == .card {
                if let card { paymentMethodId = card } else { paymentMethodId = try await api.cards().first?.id }
                guard paymentMethodId != nil else {
                    throw CommandFailure(
                        "You have no saved card: save one with countersign buy … --card-number, or pay euros by --method ideal."
                    )
                }
            }
            var funding = try await api.createFunding(
                CreateFundingRequest(
                    amount: minor, currency: currency, method: method, paymentMethodId: paymentMethodId,
                    returnURL: returnURL))
            print("Adding \(Formatting.money(minor, currency)) to your \(currency) wallet by \(method.displayName)…")
            if let link = funding.redirectURL.flatMap(URL.init(string:)) {
                let outcome = await TerminalRedirectHandler(mode: redirect).open(link)
                if outcome == .abandoned {
                    print("The payment waits at the provider; it is canceled after an hour if not finished.")
                    throw ExitCode(2)
                }
            }
            for _ in 0..<30 where funding.status == "pending" {
                try await Task.sleep(for: .seconds(pollSeconds))
                funding = try await api.funding(id: funding.fundingId)
            }
            return try Self.report(funding)
        } catch let exit as ExitCode {
            throw exit
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
    }

    /// The result screen: what happened and, when it failed, that nothing was taken.
    static func report(_ funding: WalletFunding) throws {
        let amount = Formatting.money(funding.amount, funding.currency)
        switch funding.status {
        case "succeeded":
            print(
                "Added \(amount) (\(funding.fundingId)); \(funding.currency) balance now \(Formatting.money(funding.balance, funding.currency))."
            )
        case "pending":
            print("The payment of \(amount) is not finished yet (\(funding.fundingId)); check your dashboard later.")
            throw ExitCode(2)
        default:
            let why = funding.error.map { ": \($0.message)" } ?? ""
            print("The payment of \(amount) did not go through\(why). Nothing was taken.")
            throw ExitCode(1)
        }
    }
}
