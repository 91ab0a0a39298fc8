import CountersignCore

/// `PUT /user/merchant`.
public struct MerchantRequest: Codable, Sendable, Equatable {
    /// Whether the user sells as a merchant.
    public var isMerchant: Bool
    /// A request.
    public init(isMerchant: Bool) { self.isMerchant = isMerchant }
}

/// A shipping address, as sent to `POST /user/addresses` and returned in the profile.
public struct AddressBody: Codable, Sendable, Equatable {
    /// The id (in answers only).
    public var id: String?
    /// Who receives the parcel.
    public var name: String
    /// Street and number.
    public var line1: String
    /// The city.
    public var city: String
    /// The postal code.
    public var postalCode: String
    /// ISO 3166-1 alpha-2, e.g. `NL`.
    public var country: String
    /// An address.
    public init(id: String? = nil, name: String, line1: String, city: String, postalCode: String, country: String) {
        self.id = id
        self.name = name
        self.line1 = line1
        self.city = city
        self.postalCode = postalCode
        self.country = country
    }
}

/// `GET /user/profile`: what the payment screen needs to know about the buyer.
public struct ProfileResponse: Codable, Sendable, Equatable {
    /// The user id.
    public var userId: String
    /// The phone number.
    public var phone: String
    /// The name.
    public var name: String
    /// Whether the user is a merchant.
    public var isMerchant: Bool
    /// Shipping addresses, oldest first; a buyer with none can only choose pickup.
    public var addresses: [AddressBody]
    /// Whether the user may use the operator console (`countersign operator grant`).
    public var isOperator: Bool
    /// A profile.
    public init(
        userId: String, phone: String, name: String, isMerchant: Bool, addresses: [AddressBody],
        isOperator: Bool = false
    ) {
        self.userId = userId
        self.phone = phone
        self.name = name
        self.isMerchant = isMerchant
        self.addresses = addresses
        self.isOperator = isOperator
    }
}

/// `POST /products`.
public struct CreateProductRequest: Codable, Sendable, Equatable {
    /// What is sold.
    public var title: String
    /// The asking price in EUR cents.
    public var askingPrice: Int64
    /// Where it ships from (ISO 3166-1 alpha-2).
    public var shipFromCountry: String
    /// Whether the buyer may collect it.
    public var pickup: Bool
    /// Shipping method ids from the marketplace rates, e.g. `postnl_standard`.
    public var shippingMethods: [String]
    /// A request.
    public init(title: String, askingPrice: Int64, shipFromCountry: String, pickup: Bool, shippingMethods: [String]) {
        self.title = title
        self.askingPrice = askingPrice
        self.shipFromCountry = shipFromCountry
        self.pickup = pickup
        self.shippingMethods = shippingMethods
    }
}

/// A product as the marketplace shows it.
public struct ProductResponse: Codable, Sendable, Equatable {
    /// One way to receive it: `pickup` or a shipping method.
    public struct DeliveryMethod: Codable, Sendable, Equatable {
        /// `pickup` or the shipping method id.
        public var id: String
        /// What the buyer sees.
        public var name: String
        /// A method.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }
    /// The id.
    public var id: String
    /// The seller's user id.
    public var sellerId: String
    /// What is sold.
    public var title: String
    /// The asking price.
    public var askingPrice: Int64
    /// The currency (`EUR`).
    public var currency: String
    /// Where it ships from.
    public var shipFromCountry: String
    /// Pickup (if offered) and the shipping methods.
    public var deliveryMethods: [DeliveryMethod]
    /// False while a bid holds it (accepted) or once sold.
    public var available: Bool
    /// Whether it is sold (paid for): it takes no more bids.
    public var sold: Bool?
    /// A product.
    public init(
        id: String, sellerId: String, title: String, askingPrice: Int64, currency: String, shipFromCountry: String,
        deliveryMethods: [DeliveryMethod], available: Bool, sold: Bool? = nil
    ) {
        self.id = id
        self.sellerId = sellerId
        self.title = title
        self.askingPrice = askingPrice
        self.currency = currency
        self.shipFromCountry = shipFromCountry
        self.deliveryMethods = deliveryMethods
        self.available = available
        self.sold = sold
    }
}

/// `POST /products/{id}/bids`.
public struct CreateBidRequest: Codable, Sendable, Equatable {
    /// The offer in EUR cents.
    public var amount: Int64
    /// A request.
    public init(amount: Int64) { self.amount = amount }
}

/// A bid as its buyer and the seller see it.
public struct BidResponse: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The product.
    public var productId: String
    /// The buyer.
    public var buyerId: String
    /// The offer.
    public var amount: Int64
    /// The currency.
    public var currency: String
    /// Where it is.
    public var status: BidStatus
    /// Whether it was a buy-now at the asking price.
    public var buyNow: Bool
    /// When a `NEW` bid expires unless the seller accepts it, or an `ACCEPTED` one unless it is paid
    /// (a payment under way holds it), ISO 8601; nil in the other states.
    public var expiresAt: String?
    /// Why a `CANCELED` or `EXPIRED` bid ended: withdrawn by its bidder, declined by the seller,
    /// the product sold to another buyer, or lapsed; nil while open and once paid.
    public var closedReason: BidClosedReason?
    /// Its order, once the buyer started paying (`GET /orders/{id}`); absent before.
    public var orderId: String?
    /// A bid.
    public init(
        id: String, productId: String, buyerId: String, amount: Int64, currency: String, status: BidStatus,
        buyNow: Bool, expiresAt: String? = nil, closedReason: BidClosedReason? = nil, orderId: String? = nil
    ) {
        self.id = id
        self.productId = productId
        self.buyerId = buyerId
        self.amount = amount
        self.currency = currency
        self.status = status
        self.buyNow = buyNow
        self.expiresAt = expiresAt
        self.closedReason = closedReason
        self.orderId = orderId
    }
}

/// `POST /checkout/totals`: the choices on the payment screen.
public struct CheckoutTotalsRequest: Codable, Sendable, Equatable {
    /// The accepted bid.
    public var bidId: String
    /// `pickup` or a shipping method id the product offers.
    public var delivery: String
    /// The buyer's address to ship to; required unless `delivery` is `pickup`.
    public var addressId: String?
    /// How the buyer pays.
    public var paymentMethod: PaymentMethodKind
    /// A request.
    public init(bidId: String, delivery: String, addressId: String? = nil, paymentMethod: PaymentMethodKind) {
        self.bidId = bidId
        self.delivery = delivery
        self.addressId = addressId
        self.paymentMethod = paymentMethod
    }
}

/// Which side of an order the caller is on.
public enum OrderRole: String, Codable, Sendable, Equatable {
    /// The caller pays for it.
    case buyer
    /// The caller sells it.
    case seller
}

/// One side of a paid order, as the other side sees it: who they are and, for a pickup, how to reach them.
public struct OrderParty: Codable, Sendable, Equatable {
    /// The account's name.
    public var name: String
    /// The phone number, for a pickup only.
    public var phone: String?
    /// A party.
    public init(name: String, phone: String? = nil) {
        self.name = name
        self.phone = phone
    }
}

/// An order as its buyer and the seller see it.
public struct OrderResponse: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The accepted bid it pays.
    public var bidId: String
    /// The product.
    public var productId: String
    /// Where it is.
    public var status: OrderStatus
    /// `pickup` or a shipping method id.
    public var delivery: String
    /// The shipping address, unless picked up.
    public var addressId: String?
    /// How the buyer pays.
    public var paymentMethod: PaymentMethodKind
    /// What the buyer pays, as the server computed it for these choices.
    public var totals: CheckoutTotals
    /// Which side the caller is on.
    public var role: OrderRole?
    /// When the order was placed, ISO 8601.
    public var createdAt: String?
    /// When it last changed (paid, shipped, received), ISO 8601.
    public var updatedAt: String?
    /// Once paid: the buyer (with their phone number for a pickup).
    public var buyer: OrderParty?
    /// Once paid: the seller (with their phone number for a pickup).
    public var seller: OrderParty?
    /// Once paid, unless picked up: where the seller sends it.
    public var shippingAddress: AddressBody?
    /// Once paid: what its refunds hold or returned (pending and succeeded), minor units.
    public var refunded: Int64?
    /// Once paid: what may still be refunded (the price and shipping, less `refunded`), minor units.
    public var refundable: Int64?
    /// Once paid: its refunds, oldest first.
    public var refunds: [RefundResponse]?
    /// An order.
    public init(
        id: String, bidId: String, productId: String, status: OrderStatus, delivery: String, addressId: String?,
        paymentMethod: PaymentMethodKind, totals: CheckoutTotals, role: OrderRole? = nil, createdAt: String? = nil,
        updatedAt: String? = nil, buyer: OrderParty? = nil, seller: OrderParty? = nil,
        shippingAddress: AddressBody? = nil
    ) {
        self.id = id
        self.bidId = bidId
        self.productId = productId
        self.status = status
        self.delivery = delivery
        self.addressId = addressId
        self.paymentMethod = paymentMethod
        self.totals = totals
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.buyer = buyer
        self.seller = seller
        self.shippingAddress = shippingAddress
    }
}

/// `POST /orders/{id}/pay`.
public struct PayOrderRequest: Codable, Sendable, Equatable {
    /// The saved card to charge (`pm_…`); required for `card`.
    public var paymentMethodId: String?
    /// Where the provider's redirect (3-D Secure, iDEAL, Bancontact) sends the payer back.
    public var returnURL: String?
    /// For `wallet`: the token `/biometric/auth/verify` issued for the order's options (the passkey
    /// signed the order's amount and seller). Exactly one of this and `pin`.
    public var verificationToken: String?
    /// For `wallet`: the PIN instead of the passkey.
    public var pin: String?
    /// A request.
    public init(
        paymentMethodId: String? = nil, returnURL: String? = nil, verificationToken: String? = nil,
        pin: String? = nil
    ) {
        self.paymentMethodId = paymentMethodId
        self.returnURL = returnURL
        self.verificationToken = verificationToken
        self.pin = pin
    }
}

/// Where an order's payment stands, as the server learned it from the provider.
public struct OrderPaymentResponse: Codable, Sendable, Equatable {
    /// Why the last attempt failed.
    public struct Failure: Codable, Sendable, Equatable {
        /// `card_declined`, `insufficient_funds`, `payment_failed`, …
        public var code: String
        /// For people.
        public var message: String
        /// A failure.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }
    /// The order.
    public var orderId: String
    /// `PAYMENT_PENDING` while the provider works or waits for the payer; `PAID`; back to `NEW` after a failed attempt.
    public var orderStatus: OrderStatus
    /// The provider's status (Stripe's PaymentIntent statuses), when asked this time.
    public var paymentStatus: String?
    /// Where to send the payer, while the provider waits for them (`requires_action`).
    public var redirectURL: String?
    /// Why the last attempt failed, if it did.
    public var error: Failure?
    /// A status.
    public init(
        orderId: String, orderStatus: OrderStatus, paymentStatus: String?, redirectURL: String?, error: Failure?
    ) {
        self.orderId = orderId
        self.orderStatus = orderStatus
        self.paymentStatus = paymentStatus
        self.redirectURL = redirectURL
        self.error = error
    }
}

/// `POST /payment-methods/cards`: save a card with the payment provider.
public struct AddCardRequest: Codable, Sendable, Equatable {
    /// The card number (spaces allowed).
    public var number: String
    /// 1–12.
    public var expMonth: Int
    /// Four digits.
    public var expYear: Int
    /// A request.
    public init(number: String, expMonth: Int, expYear: Int) {
        self.number = number
        self.expMonth = expMonth
        self.expYear = expYear
    }
}

/// A saved card: its payment method id is what a card payment names.
public struct SavedCardResponse: Codable, Sendable, Equatable {
    /// The payment method id, `pm_…`.
    public var id: String
    /// `visa`, `mastercard`, …
    public var brand: String
    /// The last four digits.
    public var last4: String
    /// Expiry month.
    public var expMonth: Int
    /// Expiry year.
    public var expYear: Int
    /// A card.
    public init(id: String, brand: String, last4: String, expMonth: Int, expYear: Int) {
        self.id = id
        self.brand = brand
        self.last4 = last4
        self.expMonth = expMonth
        self.expYear = expYear
    }
}

/// `GET /payment-methods/cards`.
public struct SavedCardList: Codable, Sendable, Equatable {
    /// Oldest first.
    public var cards: [SavedCardResponse]
    /// A list.
    public init(cards: [SavedCardResponse]) { self.cards = cards }
}

/// `GET /user/proceeds`: a seller's money in the marketplace, in minor units.
public struct ProceedsResponse: Codable, Sendable, Equatable {
    /// Paid for orders not yet completed: held until the buyer confirms receipt.
    public var held: Int64
    /// Earned on completed orders, owed to the seller until paid out.
    public var payable: Int64
    /// The marketplace's currency.
    public var currency: String
    /// Proceeds.
    public init(held: Int64, payable: Int64, currency: String) {
        self.held = held
        self.payable = payable
        self.currency = currency
    }
}

/// `GET /products` answer: products newest first (at most `limit`).
public struct ProductList: Codable, Sendable, Equatable {
    public var products: [ProductResponse]
    public init(products: [ProductResponse]) { self.products = products }
}

/// `GET /products/{id}/bids` (the seller's) and `GET /user/bids` (the buyer's) answer: newest first.
public struct BidList: Codable, Sendable, Equatable {
    public var bids: [BidResponse]
    public init(bids: [BidResponse]) { self.bids = bids }
}

/// `GET /user/orders` answer: the orders the user buys or sells, newest first.
public struct OrderList: Codable, Sendable, Equatable {
    public var orders: [OrderResponse]
    public init(orders: [OrderResponse]) { self.orders = orders }
}
