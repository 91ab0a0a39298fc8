import ArgumentParser
import CountersignAPI
import CountersignClient

/// The dashboard screen: balance, cashback and the latest transactions.
enum DashboardView {
    /// Prints the wallet and, when given, the recent history.
    static func show(_ wallet: WalletResponse, recent: [TransactionSummary]? = nil) {
        print("── Dashboard ──")
        print("  Balance   \(Formatting.money(wallet.balance, wallet.currency))")
        print("  Cashback  \(Formatting.money(wallet.cashback, wallet.currency))")
        guard let recent else { return }
        print("  Recent transactions:")
        if recent.isEmpty { print("    (none yet)") }
        for row in recent {
            let counterpart = row.recipientPhone.map { " → \($0)" } ?? ""
            print(
                "    \(Formatting.time(row.timestamp))  \(row.type.padding(toLength: 12, withPad: " ", startingAt: 0)) \(row.status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(Formatting.money(row.amount, row.currency))\(counterpart)"
            )
        }
    }

    /// Fetches and prints the dashboard of `api`'s user.
    static func load(_ api: CountersignAPIClient, limit: Int = 10) async throws {
        let wallet = try await api.wallet()
        let page = try await api.transactions(limit: limit)
        show(wallet, recent: page.transactions)
    }
}

/// `countersign dashboard`: the wallet and recent transactions.
struct Dashboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show balance, cashback and recent transactions (client).")

    @OptionGroup var client: ClientOptions

    @Option(help: "How many recent transactions to show.") var limit = 10

    func run() async throws {
        let (_, session, api) = try client.loggedIn()
        print("Signed in as \(session.phone) at \(client.serverURL(session))")
        do {
            try await DashboardView.load(api, limit: limit)
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
    }
}
