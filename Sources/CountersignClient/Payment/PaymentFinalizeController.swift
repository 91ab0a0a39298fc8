import CountersignAPI

/// Brings the payer back to the dashboard after a transfer, whatever its end: stops and clears
/// every payment screen and refreshes the wallet (seed steps 15–17).
public final class PaymentFinalizeController: Sendable {
    /// What the dashboard shows.
    public enum State: Sendable, Equatable {
        /// Not finalized yet.
        case idle
        /// The wallet is being fetched.
        case refreshing
        /// The dashboard with the fresh balances.
        case dashboard(WalletResponse)
        /// The dashboard without balances: the wallet could not be fetched.
        case dashboardWithoutWallet(CountersignClientError)
    }

    /// What the dashboard shows, for a view to render.
    public let screen = ScreenState<State>(.idle)
    private let client: CountersignAPIClient
    private let screens: [any PaymentScreen]

    /// A controller that clears `screens` and reads the wallet through `client`.
    public init(client: CountersignAPIClient, screens: [any PaymentScreen]) {
        self.client = client
        self.screens = screens
    }

    /// Clears every payment screen (closing their event streams), then refreshes the wallet.
    @discardableResult
    public func finish() async -> State {
        for screen in screens { screen.reset() }
        screen.set(.refreshing)
        do {
            screen.set(.dashboard(try await client.wallet()))
        } catch {
            screen.set(.dashboardWithoutWallet(CountersignClientError(error)))
        }
        return screen.value
    }
}
