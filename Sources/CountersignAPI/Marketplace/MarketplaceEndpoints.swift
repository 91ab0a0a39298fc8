extension Endpoint {
    /// The merchant flag and the shipping addresses.
    package static let profile = Endpoint(.get, "/user/profile")
    /// Sets the merchant flag.
    package static let setMerchant = Endpoint(.put, "/user/merchant")
    /// Adds a shipping address.
    package static let addAddress = Endpoint(.post, "/user/addresses")
    /// Puts a product up for sale.
    package static let createProduct = Endpoint(.post, "/products")
    /// The products on sale.
    package static let listProducts = Endpoint(.get, "/products")
    /// One product.
    package static let product = Endpoint(.get, "/products/{id}")
    /// The bids on a product, for its seller.
    package static let listProductBids = Endpoint(.get, "/products/{id}/bids")
    /// A bid.
    package static let createBid = Endpoint(.post, "/products/{id}/bids")
    /// A bid at the asking price, accepted at once.
    package static let buyNow = Endpoint(.post, "/products/{id}/buy-now")
    /// The user's bids.
    package static let listMyBids = Endpoint(.get, "/user/bids")
    /// The user's orders, as buyer or seller.
    package static let listMyOrders = Endpoint(.get, "/user/orders")
    /// One bid.
    package static let bid = Endpoint(.get, "/bids/{id}")
    /// The seller accepts the bid.
    package static let acceptBid = Endpoint(.post, "/bids/{id}/accept")
    /// The seller declines the bid.
    package static let declineBid = Endpoint(.post, "/bids/{id}/decline")
    /// The buyer withdraws the bid.
    package static let withdrawBid = Endpoint(.post, "/bids/{id}/withdraw")
    /// The bid's order.
    package static let bidOrder = Endpoint(.get, "/bids/{id}/order")
    /// What the buyer pays for these choices.
    package static let checkoutTotals = Endpoint(.post, "/checkout/totals")
    /// The bid's order.
    package static let placeOrder = Endpoint(.post, "/orders")
    /// One order.
    package static let order = Endpoint(.get, "/orders/{id}")
    /// Starts the order's payment.
    package static let payOrder = Endpoint(.post, "/orders/{id}/pay")
    /// The passkey's options for paying a `wallet` order.
    package static let payOrderOptions = Endpoint(.post, "/orders/{id}/pay/options")
    /// The payment as the provider last reported it.
    package static let orderPayment = Endpoint(.get, "/orders/{id}/payment")
    /// Stops a payment left waiting.
    package static let cancelOrderPayment = Endpoint(.post, "/orders/{id}/payment/cancel")
    /// The seller marks the order shipped.
    package static let shipOrder = Endpoint(.post, "/orders/{id}/ship")
    /// The buyer confirms receipt.
    package static let completeOrder = Endpoint(.post, "/orders/{id}/complete")
    /// The seller refunds (part of) a paid order.
    package static let createOrderRefund = Endpoint(.post, "/orders/{id}/refunds")
    /// An order's refunds.
    package static let orderRefunds = Endpoint(.get, "/orders/{id}/refunds")
    /// What the marketplace holds for and owes the seller.
    package static let proceeds = Endpoint(.get, "/user/proceeds")
    /// Saves a card.
    package static let addCard = Endpoint(.post, "/payment-methods/cards")
    /// The saved cards.
    package static let listCards = Endpoint(.get, "/payment-methods/cards")
}
