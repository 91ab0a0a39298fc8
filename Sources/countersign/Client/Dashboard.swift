import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore

/// The dashboard screen: balance, cashback, the other wallets and the latest transactions.
enum DashboardView {
    /// Prints the wallet and, when given, the recent history.
    static func show(_ wallet: WalletResponse, recent: [TransactionSummary]? = nil) {
        print("── Dashboard ──")
        print("  Balance   \(Formatting.money(wallet.balance, wallet.currency))")
        print("  Cashback  \(Formatting.money(wallet.cashback, wallet.currency))")
        for other in wallet.wallets where other.currency != wallet.currency {
            print("  \(other.currency) wallet  \(Formatting.money(other.balance, other.currency))")
        }
        guard let recent else { return }
        print("  Recent transactions:")
        if recent.isEmpty { print("    (none yet)") }
        for row in recent {
            let counterpart = counterpartText(row)
            print(
                "    \(Formatting.time(row.timestamp))  \(row.type.padding(toLength: 12, withPad: " ", startingAt: 0)) \(row.status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(Formatting.money(row.amount, row.currency))\(counterpart)"
            )
            if let note = row.note { print("      note: \(note)") }
            if let reference = row.reference { print("      ref: \(reference)") }
        }
    }

    /// Who was on the other side: the payee (by name and number) of money sent, the payer of money
    /// received, the number of an airtime top-up; and for a failed one that nothing was taken.
    static func counterpartText(_ row: TransactionSummary) -> String {
        var text: String
        switch (WalletTransactionType(rawValue: row.type), row.counterpartyName, row.recipientPhone) {
        case (.transferIn?, let name?, _), (.orderRefund?, let name?, _): text = " ← \(name)"
        case (_, let name?, let phone?): text = " → \(name) (\(phone))"
        case (_, let name?, nil): text = " → \(name)"
        case (_, nil, let phone?): text = " → \(phone)"
        default: text = ""
        }
        if let fees = row.fees, fees > 0 { text += " incl. \(Formatting.money(fees, row.currency)) fees" }
        if row.status == WalletTransactionStatus.failed.rawValue { text += " (nothing taken)" }
        return text
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
