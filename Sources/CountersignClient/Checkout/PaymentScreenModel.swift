import CountersignAPI
import CountersignCore

/// The marketplace payment screen (the seed's payment screen): loads what it needs, keeps the
/// buyer's choices with the server's totals for them, and takes one payment through the order, the
/// provider's redirect and polling.
///
/// A view renders `screen` and calls the methods; being an actor, the model applies one change at a
/// time, so a late answer never overwrites newer choices and Pay cannot start two payments.
public actor PaymentScreenModel {
    /// The model's waits, injectable so tests run them on a clock they control.
    public struct Timing: Sendable {
        /// How long the choices must stay unchanged before the totals are fetched.
        public var debounce: Duration
        /// The wait between polls of a pending payment.
        public var pollInterval: Duration
        /// How many more polls follow the first while the payment is pending; then it is flagged failing.
        public var pollRetries: Int
        /// Waits the given time; throws when the waiting task is cancelled.
        public var sleep: @Sendable (Duration) async throws -> Void

        /// Timings with every part given. A 300 ms debounce lets a buyer flick through options with one
        /// request; 2 s between polls gives the bank a moment without keeping the payer waiting long.
        public init(
            debounce: Duration = .milliseconds(300), pollInterval: Duration = .seconds(2), pollRetries: Int = 3,
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) {
            self.debounce = debounce
            self.pollInterval = pollInterval
            self.pollRetries = pollRetries
            self.sleep = sleep
        }
    }

    /// What the screen shows, for a view to render.
    public nonisolated let screen = ScreenState<State>(.idle)
    let client: CountersignAPIClient
    let redirects: any RedirectHandler
    let returnURL: String?
    let timing: Timing
    let authorizeWallet: (@Sendable (OrderResponse) async throws -> PayOrderRequest?)?
    /// Raised by every change of choices: a totals answer for an older revision is stale.
    var revision: UInt64 = 0
    /// The totals refreshes not finished yet, by revision.
    var totalsWork: [UInt64: Task<Void, Never>] = [:]
    /// Set while a load, payment or withdrawal runs: the guard against a second Pay.
    var busy = false

    /// A model calling the server through `client`, sending the payer to providers' pages through
    /// `redirects`, which bring them back to `returnURL`.
    /// `authorizeWallet` answers what authorizes a `wallet` order (the passkey's token or the PIN;
    /// nil when the buyer gave up), e.g. `WalletOrderPayment.authorization(for:pin:)`.
    public init(
        client: CountersignAPIClient, redirects: any RedirectHandler, returnURL: String? = nil,
        timing: Timing = Timing(),
        authorizeWallet: (@Sendable (OrderResponse) async throws -> PayOrderRequest?)? = nil
    ) {
        self.authorizeWallet = authorizeWallet
        self.client = client
        self.redirects = redirects
        self.returnURL = returnURL
        self.timing = timing
    }

    /// Chooses pickup or a shipping method; false (nothing changed) if it is not an enabled option or
    /// the choices are frozen. Choosing shipping picks the first address if none is chosen.
    @discardableResult
    public func chooseDelivery(_ id: String) -> Bool {
        change { checkout in
            guard checkout.deliveryOptions.contains(where: { $0.id == id && $0.disabled == nil }) else { return false }
            checkout.choices.delivery = id
            if checkout.choices.addressId == nil { checkout.choices.addressId = checkout.profile.addresses.first?.id }
            return true
        }
    }

    /// Chooses one of the buyer's addresses to ship to; false if it is not theirs or the choices are frozen.
    @discardableResult
    public func chooseAddress(_ id: String) -> Bool {
        change { checkout in
            guard checkout.profile.addresses.contains(where: { $0.id == id }) else { return false }
            checkout.choices.addressId = id
            return true
        }
    }

    /// Chooses how to pay; false if the method is disabled (card without a saved card) or the choices are frozen.
    @discardableResult
    public func choosePaymentMethod(_ kind: PaymentMethodKind) -> Bool {
        change { checkout in
            guard checkout.paymentOptions.contains(where: { $0.kind == kind && $0.disabled == nil }) else {
                return false
            }
            checkout.choices.paymentMethod = kind
            return true
        }
    }

    /// Chooses the saved card a card payment charges; false if it is not one of the buyer's cards.
    /// Every card costs the same, so the totals stay.
    @discardableResult
    public func chooseCard(_ id: String) -> Bool {
        guard case .ready(var checkout) = screen.value, !busy, checkout.isEditable,
            checkout.cards.contains(where: { $0.id == id })
        else { return false }
        checkout.choices.cardId = id
        screen.set(.ready(checkout))
        return true
    }

    /// Saves a card with the provider and, while the choices may change, chooses it for a card
    /// payment. Throws the server's refusal (e.g. `invalid_card_number`).
    public func addCard(_ card: AddCardRequest) async throws -> SavedCardResponse {
        let saved = try await client.addCard(card)
        guard case .ready(var checkout) = screen.value else { return saved }
        checkout.cards.append(saved)
        screen.set(.ready(checkout))
        if chooseCard(saved.id) { choosePaymentMethod(.card) }
        return saved
    }

    /// Applies `edit` to the screen's choices while they may change; when it did, the notice is
    /// cleared and the totals refresh after the debounce.
    private func change(_ edit: (inout Checkout) -> Bool) -> Bool {
        guard case .ready(var checkout) = screen.value, !busy, checkout.isEditable else { return false }
        let before = checkout.choices
        guard edit(&checkout) else { return false }
        guard checkout.choices != before else { return true }
        checkout.notice = nil
        revision &+= 1
        checkout.totals = checkout.totalsRequest == nil ? .incomplete : .refreshing(previous: checkout.totals.shown)
        screen.set(.ready(checkout))
        scheduleTotals()
        return true
    }
}

extension Checkout.Totals {
    /// The totals on screen, if any.
    var shown: CheckoutTotals? {
        switch self {
        case .ready(let totals): totals
        case .refreshing(let previous): previous
        case .incomplete, .failed: nil
        }
    }
}
