import ArgumentParser
import CountersignCore
import CountersignServer

/// `countersign wallet …`: operator commands on wallets.
struct Wallet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Operator commands on wallets.", subcommands: [Fund.self])

    /// `countersign wallet fund --phone P --amount N`: credits a wallet from the funding account.
    struct Fund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credit a user's wallet from the funding account (amount in naira, e.g. 5000 or 5000.50).")

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's phone number.")
        var phone: String

        @Option(help: "How much to credit, in units of the wallet currency: 5000 or 5000.50 is ₦5,000.50.")
        var amount: AmountArgument

        @Option(help: "A unique reference; the same reference never credits twice.")
        var reference: String?

        func validate() throws { _ = try minorUnits() }

        /// The amount in minor units of the wallet currency, within what one funding may be.
        func minorUnits() throws -> Int64 {
            try amount.minor(in: store.configuration().currency, within: 1...WalletService.maximumFunding)
        }

        func run() async throws {
            let minor = try minorUnits()
            try await store.withExistingStore { services in
                let money = { Currency.named(services.configuration.currency).format($0) }
                let (id, balance) = try await services.wallets.fund(phone: phone, amount: minor, reference: reference)
                print("funded \(phone) with \(money(minor)) (\(id)); balance now \(money(balance))")
            }
        }
    }
}
