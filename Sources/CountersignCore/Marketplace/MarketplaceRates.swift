/// What delivery and payment cost in the marketplace, in minor units of one currency. Loaded from a
/// configuration file; `standard` holds the documented defaults.
public struct MarketplaceRates: Sendable, Hashable, Codable {
    /// A shipping method and its price per route.
    public struct ShippingMethod: Sendable, Hashable, Codable {
        /// The id products name, e.g. `postnl_standard`.
        public var id: String
        /// What the buyer sees.
        public var name: String
        /// Prices by route, most specific first: `from`/`to` are country codes or `*` for any.
        public var routes: [Route]

        /// A method with its routes.
        public init(id: String, name: String, routes: [Route]) {
            self.id = id
            self.name = name
            self.routes = routes
        }
    }

    /// The price of sending from one country to another; `*` matches any country.
    public struct Route: Sendable, Hashable, Codable {
        /// The ship-from country, or `*`.
        public var from: String
        /// The destination country, or `*`.
        public var to: String
        /// The price in minor units.
        public var amount: Int64
        /// A route.
        public init(from: String, to: String, amount: Int64) {
            self.from = from
            self.to = to
            self.amount = amount
        }
    }

    /// A payment method's fee: a fixed part plus basis points of the order (subtotal + shipping),
    /// rounded half-up.
    public struct PaymentFee: Sendable, Hashable, Codable {
        /// Minor units per payment.
        public var fixed: Int64
        /// Basis points of subtotal plus shipping (290 = 2.9%).
        public var basisPoints: Int64
        /// A fee.
        public init(fixed: Int64, basisPoints: Int64) {
            self.fixed = fixed
            self.basisPoints = basisPoints
        }
    }

    /// The currency of every amount.
    public var currency: String
    /// The shipping methods products may offer.
    public var shippingMethods: [ShippingMethod]
    /// The fee for each payment method; every method must have one.
    public var paymentFees: [String: PaymentFee]

    /// Rates with every part given.
    public init(currency: String, shippingMethods: [ShippingMethod], paymentFees: [String: PaymentFee]) {
        self.currency = currency
        self.shippingMethods = shippingMethods
        self.paymentFees = paymentFees
    }

    /// The defaults, in EUR cents: PostNL standard €6.95 within NL, €13.95 NL→BE/DE, €24.95 elsewhere;
    /// PostNL registered €9.95 within NL, €17.95 NL→BE/DE, €29.95 elsewhere; iDEAL a flat €1.99,
    /// Bancontact a flat €1.99, card 2.9% of subtotal plus shipping.
    public static let standard = MarketplaceRates(
        currency: "EUR",
        shippingMethods: [
            ShippingMethod(
                id: "postnl_standard", name: "PostNL standard",
                routes: [
                    Route(from: "NL", to: "NL", amount: 695), Route(from: "NL", to: "BE", amount: 1_395),
                    Route(from: "NL", to: "DE", amount: 1_395), Route(from: "*", to: "*", amount: 2_495),
                ]),
            ShippingMethod(
                id: "postnl_registered", name: "PostNL registered",
                routes: [
                    Route(from: "NL", to: "NL", amount: 995), Route(from: "NL", to: "BE", amount: 1_795),
                    Route(from: "NL", to: "DE", amount: 1_795), Route(from: "*", to: "*", amount: 2_995),
                ]),
        ],
        paymentFees: [
            PaymentMethodKind.ideal.rawValue: PaymentFee(fixed: 199, basisPoints: 0),
            PaymentMethodKind.bancontact.rawValue: PaymentFee(fixed: 199, basisPoints: 0),
            PaymentMethodKind.card.rawValue: PaymentFee(fixed: 0, basisPoints: 290),
        ]
    )

    /// Why the rates cannot be used, if they can't.
    public var problem: String? {
        for method in PaymentMethodKind.allCases where method.usesProvider {
            guard let fee = paymentFees[method.rawValue] else { return "no fee for payment method \(method.rawValue)" }
            if fee.fixed < 0 || fee.basisPoints < 0 || fee.basisPoints > 10_000 {
                return "the \(method.rawValue) fee is out of range"
            }
        }
        var ids = Set<String>()
        for method in shippingMethods {
            guard ids.insert(method.id).inserted else { return "shipping method \(method.id) is listed twice" }
            guard !method.routes.isEmpty else { return "shipping method \(method.id) has no routes" }
            for route in method.routes {
                guard route.amount >= 0, route.from == "*" || Country(route.from) != nil,
                    route.to == "*" || Country(route.to) != nil
                else {
                    return "shipping method \(method.id) has a route with a bad country or amount"
                }
            }
        }
        return nil
    }

    /// The shipping method `id`, if configured.
    public func shippingMethod(_ id: String) -> ShippingMethod? {
        shippingMethods.first { $0.id == id }
    }

    /// The price of `method` from `from` to `to`: the first route that matches, or nil if none does.
    public func shippingPrice(_ method: ShippingMethod, from: Country, to: Country) -> Int64? {
        method.routes.first { ($0.from == "*" || $0.from == from.code) && ($0.to == "*" || $0.to == to.code) }?.amount
    }
}
