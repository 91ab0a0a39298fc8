import CountersignAPI
import CountersignCore

extension CountersignAPIClient {
    /// `GET /user/profile`: the merchant flag and the shipping addresses.
    public func profile() async throws -> ProfileResponse {
        try await call(request(.profile))
    }

    /// `PUT /user/merchant`: sets the merchant flag; returns the profile.
    public func setMerchant(_ isMerchant: Bool) async throws -> ProfileResponse {
        try await call(request(.setMerchant, json: MerchantRequest(isMerchant: isMerchant)))
    }

    /// `POST /user/addresses`: adds a shipping address; returns it with its id.
    public func addAddress(_ address: AddressBody) async throws -> AddressBody {
        try await call(request(.addAddress, json: address))
    }

    /// `POST /products`: puts a product up for sale.
    public func createProduct(_ body: CreateProductRequest) async throws -> ProductResponse {
        try await call(request(.createProduct, json: body))
    }

    /// `GET /products/{id}`: the product with its delivery methods.
    public func product(id: String) async throws -> ProductResponse {
        try await call(request(.product, [id]))
    }

    /// `POST /products/{id}/bids`: a `NEW` bid of `amount` minor units.
    public func placeBid(productId: String, amount: Int64) async throws -> BidResponse {
        try await call(request(.createBid, [productId], json: CreateBidRequest(amount: amount)))
    }

    /// `POST /products/{id}/buy-now`: a bid at the asking price, `ACCEPTED` at once; `product_unavailable`
    /// when another bid holds the product.
    public func buyNow(productId: String) async throws -> BidResponse {
        try await call(request(.buyNow, [productId]))
    }

    /// `GET /bids/{id}`: the bid, for its buyer or the seller.
    public func bid(id: String) async throws -> BidResponse {
        try await call(request(.bid, [id]))
    }

    /// `POST /bids/{id}/accept`: the seller accepts the bid.
    public func acceptBid(id: String) async throws -> BidResponse {
        try await call(request(.acceptBid, [id]))
    }

    /// `POST /bids/{id}/decline`: the seller declines a `NEW` bid; its bidder sees it declined.
    public func declineBid(id: String) async throws -> BidResponse {
        try await call(request(.declineBid, [id]))
    }

    /// `POST /bids/{id}/withdraw`: the buyer withdraws the bid (an abandoned buy-now), cancelling its
    /// order, so the product can be bid on again. `payment_in_progress` while a payment is under way.
    public func withdrawBid(id: String) async throws -> BidResponse {
        try await call(request(.withdrawBid, [id]))
    }

    /// `GET /bids/{id}/order`: the bid's order, to resume it; nil when the bid has none yet.
    public func order(bidId: String) async throws -> OrderResponse? {
        do {
            return try await call(request(.bidOrder, [bidId]))
        } catch let error as CountersignClientError where error.errorCode == .orderNotFound {
            return nil
        }
    }

    /// `POST /checkout/totals`: what the buyer pays for these choices, as only the server computes it.
    public func totals(_ choices: CheckoutTotalsRequest) async throws -> CheckoutTotals {
        try await call(request(.checkoutTotals, json: choices))
    }

    /// `POST /orders`: creates the bid's order, or returns its open one (with these choices while it is
    /// still `NEW`): never a second order for one bid, so retrying is safe.
    public func placeOrder(_ choices: CheckoutTotalsRequest) async throws -> OrderResponse {
        try await call(request(.placeOrder, json: choices))
    }

    /// `GET /orders/{id}`: the order, for its buyer or the seller.
    public func order(id: String) async throws -> OrderResponse {
        try await call(request(.order, [id]))
    }

    /// `POST /orders/{id}/pay`: starts the payment, or reports the one under way; the server takes at
    /// most one payment per order, whatever the retries.
    public func pay(orderId: String, _ body: PayOrderRequest) async throws -> OrderPaymentResponse {
        try await call(request(.payOrder, [orderId], json: body))
    }

    /// `POST /orders/{id}/pay/options`: for a `wallet` order, the passkey's request options, whose
    /// challenge covers the order's total and seller; `insufficient_funds` before any gesture.
    public func payOrderOptions(orderId: String) async throws -> AuthenticationOptionsResponse {
        try await call(request(.payOrderOptions, [orderId]))
    }

    /// `GET /orders/{id}/payment`: the provider's current word on the payment, as the server applied it.
    public func payment(orderId: String) async throws -> OrderPaymentResponse {
        try await call(request(.orderPayment, [orderId]))
    }

    /// `POST /orders/{id}/payment/cancel`: stops a payment left waiting; the order returns to `NEW`.
    public func cancelPayment(orderId: String) async throws -> OrderPaymentResponse {
        try await call(request(.cancelOrderPayment, [orderId]))
    }

    /// `POST /orders/{id}/ship`: the seller marks a paid order shipped.
    public func shipOrder(id: String) async throws -> OrderResponse {
        try await call(request(.shipOrder, [id]))
    }

    /// `POST /orders/{id}/complete`: the buyer confirms receipt; the seller's money leaves escrow.
    public func completeOrder(id: String) async throws -> OrderResponse {
        try await call(request(.completeOrder, [id]))
    }

    /// `GET /user/proceeds`: what the marketplace holds for and owes the seller.
    public func proceeds() async throws -> ProceedsResponse {
        try await call(request(.proceeds))
    }

    /// `POST /payment-methods/cards`: saves a card with the payment provider.
    public func addCard(_ card: AddCardRequest) async throws -> SavedCardResponse {
        try await call(request(.addCard, json: card))
    }

    /// `GET /payment-methods/cards`: the saved cards, oldest first.
    public func cards() async throws -> [SavedCardResponse] {
        try await call(request(.listCards), as: SavedCardList.self).cards
    }
}
