/// What a buyer pays, computed only by the server: the bid, shipping and the payment method's fee.
public struct CheckoutTotals: Sendable, Hashable, Codable {
    /// One line of the breakdown.
    public struct Line: Sendable, Hashable, Codable {
        /// `item`, `shipping` or `payment_fee`.
        public var kind: String
        /// What the buyer sees.
        public var name: String
        /// Minor units.
        public var amount: Int64
        /// A line.
        public init(kind: String, name: String, amount: Int64) {
            self.kind = kind
            self.name = name
            self.amount = amount
        }
    }

    /// How the buyer receives the item.
    public enum Delivery: Sendable, Hashable {
        /// Collected from the seller: free.
        case pickup
        /// Shipped with the method `id` to `to`.
        case shipping(methodId: String, to: Country)
    }

    /// Why totals cannot be computed.
    public enum Problem: Error, Sendable, Equatable {
        /// The product does not offer that method, or the rates do not know it.
        case unknownShippingMethod(String)
        /// The method does not ship to that country.
        case noRouteTo(String)
        /// The rates have no fee for the payment method.
        case unknownPaymentMethod(String)
        /// The item's price is not positive or absurdly large.
        case amountOutOfRange
    }

    /// The accepted bid's amount.
    public var subtotal: Int64
    /// Shipping; 0 for pickup.
    public var shipping: Int64
    /// The payment method's fee.
    public var paymentFee: Int64
    /// What the buyer pays: subtotal + shipping + paymentFee.
    public var total: Int64
    /// The currency of every amount.
    public var currency: String
    /// The breakdown, in the order shown.
    public var lines: [Line]

    /// Totals for an item of `subtotal` shipped from `from` as `delivery`, paid by `method`.
    /// The card fee is a percentage of subtotal plus shipping, rounded half-up.
    public init(subtotal: Int64, delivery: Delivery, from: Country, method: PaymentMethodKind, rates: MarketplaceRates)
        throws(Problem)
    {
        // 10^12 minor units keeps every product below in 64 bits.
        guard subtotal > 0, subtotal <= 1_000_000_000_000 else { throw .amountOutOfRange }
        var lines = [Line(kind: "item", name: "Item", amount: subtotal)]
        var shipping: Int64 = 0
        if case .shipping(let methodId, let to) = delivery {
            guard let shippingMethod = rates.shippingMethod(methodId) else { throw .unknownShippingMethod(methodId) }
            guard let price = rates.shippingPrice(shippingMethod, from: from, to: to) else { throw .noRouteTo(to.code) }
            shipping = price
            lines.append(
                Line(kind: "shipping", name: "\(shippingMethod.name) (\(from.code) → \(to.code))", amount: price))
        } else {
            lines.append(Line(kind: "shipping", name: "Pickup", amount: 0))
        }
        // The wallet pays no provider: it has no fee, whatever the rates say.
        let fee =
            method.usesProvider
            ? rates.paymentFees[method.rawValue] : MarketplaceRates.PaymentFee(fixed: 0, basisPoints: 0)
        guard let fee else { throw .unknownPaymentMethod(method.rawValue) }
        let paymentFee = fee.fixed + ((subtotal + shipping) * fee.basisPoints + 5_000) / 10_000
        lines.append(Line(kind: "payment_fee", name: "Payment fee (\(method.displayName))", amount: paymentFee))
        self.subtotal = subtotal
        self.shipping = shipping
        self.paymentFee = paymentFee
        self.total = subtotal + shipping + paymentFee
        self.currency = rates.currency
        self.lines = lines
    }
}
