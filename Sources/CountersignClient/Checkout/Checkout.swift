import CountersignAPI
import CountersignCore

/// What the payment screen shows: the buyer, the product, the accepted bid and its order (when one
/// is resumed), the saved cards, the buyer's choices, and the server's totals for them.
public struct Checkout: Sendable, Equatable {
    /// The buyer's choices; each nil until made.
    public struct Choices: Sendable, Equatable {
        /// `pickup` or a shipping method id.
        public var delivery: String?
        /// The shipping address; kept while pickup is chosen, but sent only for shipping.
        public var addressId: String?
        /// How the buyer pays.
        public var paymentMethod: PaymentMethodKind?
        /// The saved card (`pm_…`) a card payment charges.
        public var cardId: String?

        /// Choices with every field given.
        public init(
            delivery: String? = nil, addressId: String? = nil, paymentMethod: PaymentMethodKind? = nil,
            cardId: String? = nil
        ) {
            self.delivery = delivery
            self.addressId = addressId
            self.paymentMethod = paymentMethod
            self.cardId = cardId
        }
    }

    /// Why an option is shown but cannot be chosen.
    public enum Disabled: Sendable, Equatable {
        /// Shipping needs an address, and the buyer has none: only pickup is possible.
        case noAddress
        /// A card payment needs a saved card, and the buyer has none yet.
        case noSavedCard
    }

    /// One way to receive the product.
    public struct DeliveryOption: Sendable, Equatable {
        /// `pickup` or the shipping method id.
        public var id: String
        /// What the buyer sees.
        public var name: String
        /// Why it cannot be chosen; nil when it can.
        public var disabled: Disabled?
    }

    /// One way to pay.
    public struct PaymentOption: Sendable, Equatable {
        /// The method.
        public var kind: PaymentMethodKind
        /// Why it cannot be chosen; nil when it can.
        public var disabled: Disabled?
    }

    /// The totals for the current choices; only the server computes them.
    public enum Totals: Sendable, Equatable {
        /// A choice the totals need (delivery, an address for shipping, the payment method) is missing.
        case incomplete
        /// Being fetched for the current choices; `previous` is what was shown before, if anything.
        case refreshing(previous: CheckoutTotals?)
        /// The server's totals for the current choices.
        case ready(CheckoutTotals)
        /// The server refused these choices (e.g. `no_route`) or could not be reached.
        case failed(CountersignClientError)
    }

    /// The buyer: merchant flag and addresses.
    public var profile: ProfileResponse
    /// What is bought.
    public var product: ProductResponse
    /// The accepted bid being paid.
    public var bid: BidResponse
    /// The bid's order once there is one, as last reported.
    public var order: OrderResponse?
    /// The buyer's saved cards.
    public var cards: [SavedCardResponse]
    /// What the buyer chose.
    public var choices: Choices
    /// What it costs.
    public var totals: Totals
    /// What happened on the way back to the screen, if anything (a declined payment, an abandoned redirect…).
    public var notice: PaymentScreenModel.Notice? = nil

    /// The screen for `bid`, resuming `order`'s choices and totals when there is one; otherwise pickup
    /// when offered (else the first shipping method, given an address), the first address and the
    /// first card, with the payment method left to the buyer.
    init(
        profile: ProfileResponse, product: ProductResponse, bid: BidResponse, order: OrderResponse?,
        cards: [SavedCardResponse]
    ) {
        self.profile = profile
        self.product = product
        self.bid = bid
        self.order = order
        self.cards = cards
        choices = Choices(
            addressId: order?.addressId ?? profile.addresses.first?.id, paymentMethod: order?.paymentMethod,
            cardId: cards.first?.id)
        totals = .incomplete
        choices.delivery = order?.delivery ?? deliveryOptions.first { $0.disabled == nil }?.id
        if let order { totals = .ready(order.totals) }
    }

    /// Pickup whenever the product offers it; shipping methods disabled while the buyer has no address.
    public var deliveryOptions: [DeliveryOption] {
        product.deliveryMethods.map { method in
            DeliveryOption(
                id: method.id, name: method.name,
                disabled: method.id != Self.pickup && profile.addresses.isEmpty ? .noAddress : nil)
        }
    }

    /// Card (disabled until a card is saved), iDEAL, Bancontact and the wallet.
    public var paymentOptions: [PaymentOption] {
        PaymentMethodKind.allCases.map {
            PaymentOption(kind: $0, disabled: $0 == .card && cards.isEmpty ? .noSavedCard : nil)
        }
    }

    /// Whether the choices may change: not while the order's payment is under way with the provider.
    public var isEditable: Bool { order?.status.isEditable ?? true }

    /// The request the totals and the order are made from; nil while a choice is missing.
    public var totalsRequest: CheckoutTotalsRequest? {
        guard let delivery = choices.delivery, let method = choices.paymentMethod else { return nil }
        if delivery == Self.pickup {
            return CheckoutTotalsRequest(bidId: bid.id, delivery: delivery, paymentMethod: method)
        }
        guard let address = choices.addressId else { return nil }
        return CheckoutTotalsRequest(bidId: bid.id, delivery: delivery, addressId: address, paymentMethod: method)
    }

    /// Whether Pay can be pressed: every choice made (a card for a card payment) and the totals for
    /// exactly these choices shown, so the buyer never pays an amount they have not seen.
    public var canPay: Bool {
        guard totalsRequest != nil, case .ready = totals else { return false }
        return choices.paymentMethod != .card || choices.cardId != nil
    }

    /// The delivery id of pickup.
    static let pickup = "pickup"
}
