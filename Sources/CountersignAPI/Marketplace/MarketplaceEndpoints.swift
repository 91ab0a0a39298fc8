extension Endpoint {
    /// `GET /user/profile`: the merchant flag and the shipping addresses.
    package static let profile = Endpoint(.get, "/user/profile")
    /// `PUT /user/merchant`: sets the merchant flag.
    package static let setMerchant = Endpoint(.put, "/user/merchant")
    /// `POST /user/addresses`: adds a shipping address.
    package static let addAddress = Endpoint(.post, "/user/addresses")
    /// `POST /products`: puts a product up for sale.
    package static let createProduct = Endpoint(.post, "/products")
    /// `GET /products`: the products on sale.
    package static let listProducts = Endpoint(.get, "/products")
    /// `GET /products/{id}`: one product.
    package static let product = Endpoint(.get, "/products/{id}")
    /// `GET /products/{id}/bids`: the bids on a product, for its seller.
    package static let listProductBids = Endpoint(.get, "/products/{id}/bids")
    /// `POST /products/{id}/bids`: a bid.
    package static let createBid = Endpoint(.post, "/products/{id}/bids")
    /// `POST /products/{id}/buy-now`: a bid at the asking price, accepted at once.
    package static let buyNow = Endpoint(.post, "/products/{id}/buy-now")
    /// `GET /user/bids`: the user's bids.
    package static let listMyBids = Endpoint(.get, "/user/bids")
    /// `GET /user/orders`: the user's orders, as buyer or seller.
    package static let listMyOrders = Endpoint(.get, "/user/orders")
    /// `GET /bids/{id}`: one bid.
    package static let bid = Endpoint(.get, "/bids/{id}")
    /// `POST /bids/{id}/accept`: the seller accepts the bid.
    package static let acceptBid = Endpoint(.post, "/bids/{id}/accept")
    /// `POST /bids/{id}/withdraw`: the buyer withdraws the bid.
    package static let withdrawBid = Endpoint(.post, "/bids/{id}/withdraw")
    /// `GET /bids/{id}/order`: the bid's order.
    package static let bidOrder = Endpoint(.get, "/bids/{id}/order")
    /// `POST /checkout/totals`: what the buyer pays for these choices.
    package static let checkoutTotals = Endpoint(.post, "/checkout/totals")
    /// `POST /orders`: the bid's order.
    package static let placeOrder = Endpoint(.post, "/orders")
    /// `GET /orders/{id}`: one order.
    package static let order = Endpoint(.get, "/orders/{id}")
    /// `POST /orders/{id}/pay`: starts the order's payment.
    package static let payOrder = Endpoint(.post, "/orders/{id}/pay")
    /// `GET /orders/{id}/payment`: the payment as the provider last reported it.
    package static let orderPayment = Endpoint(.get, "/orders/{id}/payment")
    /// `POST /orders/{id}/payment/cancel`: stops a payment left waiting.
    package static let cancelOrderPayment = Endpoint(.post, "/orders/{id}/payment/cancel")
    /// `POST /orders/{id}/ship`: the seller marks the order shipped.
    package static let shipOrder = Endpoint(.post, "/orders/{id}/ship")
    /// `POST /orders/{id}/complete`: the buyer confirms receipt.
    package static let completeOrder = Endpoint(.post, "/orders/{id}/complete")
    /// `GET /user/proceeds`: what the marketplace holds for and owes the seller.
    package static let proceeds = Endpoint(.get, "/user/proceeds")
    /// `POST /payment-methods/cards`: saves a card.
    package static let addCard = Endpoint(.post, "/payment-methods/cards")
    /// `GET /payment-methods/cards`: the saved cards.
    package static let listCards = Endpoint(.get, "/payment-methods/cards")
}
