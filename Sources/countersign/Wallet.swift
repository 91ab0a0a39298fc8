import ArgumentParser
import CountersignCore
import CountersignServer

/// `countersign wallet …`: operator commands on wallets.
struct Wallet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wallet commands: add money (client), fund a user's wallet (operator).",
        subcommands: [WalletAdd.self, Fund.self])

    /// `countersign wallet fund --phone P --amount N`: credits a wallet from the funding account.
    struct Fund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Credit a user's wallet from the funding account (amount in units of its currency, e.g. 5000 or 5000.50)."
        )

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's phone number.")
        var phone: String

        @Option(help: "How much to credit, in units of the wallet currency: 5000.50 is ₦5,000.50 (or €5,000.50).")
        var amount: AmountArgument

        @Option(help: "The wallet to credit, e.g. EUR (default: the primary wallet currency).")
        var currency: String?

        @Option(help: "A unique reference; the same reference never credits twice.")
        var reference: String?

        func validate() throws { _ = try minorUnits() }

        /// The wallet's currency: the one asked for, or the primary.
        func walletCurrency() throws -> String {
            let configuration = try store.configuration()
            guard let currency = currency?.uppercased() else { return configuration.currency }
            guard configuration.walletCurrencies.contains(currency) else {
                throw ValidationError(
                    "--currency must be one of the wallet currencies: \(configuration.walletCurrencies.joined(separator: ", "))."
                )
            }
            return currency
        }

        /// The amount in minor units of the wallet currency, within what one funding may be.
        func minorUnits() throws -> Int64 {
            try amount.minor(in: walletCurrency(), within: 1...WalletService.maximumFunding)
        }

        func run() async throws {
            let (minor, currency) = (try minorUnits(), try walletCurrency())
            try await store.withExistingStore { services in
                let money = { Currency.named(currency).format($0) }
                let (id, balance) = try await services.wallets.fund(
                    phone: phone, amount: minor, currency: currency, reference: reference)
                print("funded \(phone) with \(money(minor)) (\(id)); balance now \(money(balance))")
            }
        }
    }
}
