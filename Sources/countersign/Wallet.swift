import ArgumentParser
import CountersignServer

/// `countersign wallet …`: operator commands on wallets.
struct Wallet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Operator commands on wallets.", subcommands: [Fund.self])

    /// `countersign wallet fund --phone P --amount N`: credits a wallet from the funding account.
    struct Fund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credit a user's wallet from the funding account (amount in minor units).")

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's phone number.")
        var phone: String

        @Option(help: "Minor units to credit, e.g. 500000 for 5,000.00.")
        var amount: Int64

        @Option(help: "A unique reference; the same reference never credits twice.")
        var reference: String?

        func run() async throws {
            try await store.withExistingStore { services in
                let (id, balance) = try await services.wallets.fund(phone: phone, amount: amount, reference: reference)
                print(
                    "funded \(phone) with \(amount) \(services.configuration.currency) minor units (\(id)); balance now \(balance)"
                )
            }
        }
    }
}
