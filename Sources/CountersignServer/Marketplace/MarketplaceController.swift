import CountersignAPI
import CountersignCore
import Hummingbird

/// The marketplace: the buyer's profile and addresses, products, bids, and checkout totals.
package struct MarketplaceController {
    let marketplace: MarketplaceService
    /// Limits the wallet payment challenges a client or an account may ask for, as for top-ups.
    let throttle: RequestThrottle

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.profile, use: profile)
        group.on(.setMerchant, use: merchant)
        group.on(.addAddress, use: addAddress)
        group.on(.createProduct, use: createProduct)
        group.on(.listProducts, use: products)
        group.on(.listProductBids, use: productBids)
        group.on(.listMyBids, use: myBids)
        group.on(.listMyOrders, use: myOrders)
        group.on(.product, use: product)
        group.on(.createBid, use: bid)
        group.on(.buyNow, use: buyNow)
        group.on(.bid, use: getBid)
        group.on(.acceptBid, use: accept)
        group.on(.declineBid, use: decline)
        group.on(.withdrawBid, use: withdraw)
        group.on(.bidOrder, use: bidOrder)
        group.on(.checkoutTotals, use: totals)
        group.on(.placeOrder, use: placeOrder)
        group.on(.order, use: order)
        group.on(.payOrder, use: pay)
        group.on(.payOrderOptions, use: payOptions)
        group.on(.orderPayment, use: payment)
        group.on(.cancelOrderPayment, use: cancelPayment)
        group.on(.shipOrder, use: ship)
        group.on(.completeOrder, use: complete)
        group.on(.createOrderRefund, use: createRefund)
        group.on(.orderRefunds, use: refunds)
        group.on(.proceeds, use: proceeds)
        group.on(.addCard, use: addCard)
        group.on(.listCards, use: cards)
    }

    /// `GET /user/profile` → merchant flag and addresses.
    @Sendable func profile(_ request: Request, context: AppRequestContext) async throws -> ProfileResponse {
        try await marketplace.profile(userId: try context.requireUser())
    }

    /// `PUT /user/merchant` `{isMerchant}` → the profile.
    @Sendable func merchant(_ request: Request, context: AppRequestContext) async throws -> ProfileResponse {
        var request = request
        let body = try await request.decodeJSON(as: MerchantRequest.self, context: context)
        return try await marketplace.setMerchant(userId: try context.requireUser(), body.isMerchant)
    }

    /// `POST /user/addresses` → 201 the address with its id.
    @Sendable func addAddress(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        AddressBody
    > {
        var request = request
        let body = try await request.decodeJSON(as: AddressBody.self, context: context)
        return .init(
            status: .created, response: try await marketplace.addAddress(userId: try context.requireUser(), body))
    }

    /// `POST /products` → 201 the product.
    @Sendable func createProduct(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        ProductResponse
    > {
        var request = request
        let body = try await request.decodeJSON(as: CreateProductRequest.self, context: context)
        return .init(
            status: .created, response: try await marketplace.createProduct(sellerId: try context.requireUser(), body))
    }

    /// `GET /products?seller=me&limit=` → products newest first: all, or the caller's own.
    @Sendable func products(_ request: Request, context: AppRequestContext) async throws -> ProductList {
        let query = FormQuery(request)
        var sellerId: String?
        if let seller = query["seller"] {
            guard seller == "me" else { throw APIError(.invalidSeller, "seller can only be me.") }
            sellerId = try context.requireUser()
        }
        return try await marketplace.products(sellerId: sellerId, limit: try Self.limit(query))
    }

    /// `GET /products/{id}/bids?limit=` → the bids on the caller's product, newest first.
    @Sendable func productBids(_ request: Request, context: AppRequestContext) async throws -> BidList {
        try await marketplace.bids(
            sellerId: try context.requireUser(), productId: try context.parameters.require("id"),
            limit: try Self.limit(FormQuery(request)))
    }

    /// `GET /user/bids?limit=` → the caller's bids, newest first.
    @Sendable func myBids(_ request: Request, context: AppRequestContext) async throws -> BidList {
        try await marketplace.bids(buyerId: try context.requireUser(), limit: try Self.limit(FormQuery(request)))
    }

    /// `GET /user/orders?limit=` → the orders the caller buys or sells, newest first.
    @Sendable func myOrders(_ request: Request, context: AppRequestContext) async throws -> OrderList {
        try await marketplace.orders(userId: try context.requireUser(), limit: try Self.limit(FormQuery(request)))
    }

    /// `limit`, 20 when absent.
    static func limit(_ query: FormQuery) throws -> Int {
        guard let text = query["limit"] else { return 20 }
        guard text.utf8.count <= 4, let limit = Int(text) else {
            throw APIError(.invalidLimit, "limit must be an integer.")
        }
        return limit
    }

    /// `GET /products/{id}`.
    @Sendable func product(_ request: Request, context: AppRequestContext) async throws -> ProductResponse {
        _ = try context.requireUser()
        return try await marketplace.product(id: try context.parameters.require("id"))
    }

    /// `POST /products/{id}/bids` `{amount}` → 201 a `NEW` bid.
    @Sendable func bid(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<BidResponse> {
        var request = request
        let body = try await request.decodeJSON(as: CreateBidRequest.self, context: context)
        let bid = try await marketplace.bid(
            buyerId: try context.requireUser(), productId: try context.parameters.require("id"), amount: body.amount)
        return .init(status: .created, response: bid)
    }

    /// `POST /products/{id}/buy-now` → 201 an `ACCEPTED` bid at the asking price.
    @Sendable func buyNow(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<BidResponse> {
        .init(
            status: .created,
            response: try await marketplace.buyNow(
                buyerId: try context.requireUser(), productId: try context.parameters.require("id")))
    }

    /// `GET /bids/{id}` → the bid, for its buyer or the seller.
    @Sendable func getBid(_ request: Request, context: AppRequestContext) async throws -> BidResponse {
        try await marketplace.bid(userId: try context.requireUser(), id: try context.parameters.require("id"))
    }

    /// `POST /bids/{id}/accept` (the seller) → `ACCEPTED`.
    @Sendable func accept(_ request: Request, context: AppRequestContext) async throws -> BidResponse {
        try await marketplace.accept(sellerId: try context.requireUser(), bidId: try context.parameters.require("id"))
    }

    /// `POST /bids/{id}/decline` (the seller, on a `NEW` bid) → `CANCELED`, `closedReason` `declined`.
    @Sendable func decline(_ request: Request, context: AppRequestContext) async throws -> BidResponse {
        try await marketplace.decline(sellerId: try context.requireUser(), bidId: try context.parameters.require("id"))
    }

    /// `POST /bids/{id}/withdraw` (the buyer) → `CANCELED`.
    @Sendable func withdraw(_ request: Request, context: AppRequestContext) async throws -> BidResponse {
        try await marketplace.withdraw(buyerId: try context.requireUser(), bidId: try context.parameters.require("id"))
    }

    /// `GET /bids/{id}/order` (the buyer) → the bid's order, to resume it; 404 `order_not_found` when none.
    @Sendable func bidOrder(_ request: Request, context: AppRequestContext) async throws -> OrderResponse {
        try await marketplace.order(buyerId: try context.requireUser(), bidId: try context.parameters.require("id"))
    }

    /// `POST /checkout/totals` → `{subtotal, shipping, paymentFee, total, currency, lines}`.
    @Sendable func totals(_ request: Request, context: AppRequestContext) async throws -> CheckoutTotals {
        var request = request
        let body = try await request.decodeJSON(as: CheckoutTotalsRequest.self, context: context)
        return try await marketplace.totals(buyerId: try context.requireUser(), body)
    }

    /// `POST /orders` (the totals request's body) → 201 a new order, or 200 the bid's existing one
    /// (with the new choices while it is still `NEW`).
    @Sendable func placeOrder(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        OrderResponse
    > {
        var request = request
        let body = try await request.decodeJSON(as: CheckoutTotalsRequest.self, context: context)
        let (order, created) = try await marketplace.placeOrder(buyerId: try context.requireUser(), body)
        return .init(status: created ? .created : .ok, response: order)
    }

    /// `GET /orders/{id}`, for the buyer or the seller.
    @Sendable func order(_ request: Request, context: AppRequestContext) async throws -> OrderResponse {
        try await marketplace.order(userId: try context.requireUser(), id: try context.parameters.require("id"))
    }
}

extension MarketplaceController {
    /// `POST /orders/{id}/pay` `{paymentMethodId?, returnURL?}` → where the payment stands; a pay on an
    /// order whose payment is under way reports that payment, never a second one.
    @Sendable func pay(_ request: Request, context: AppRequestContext) async throws -> OrderPaymentResponse {
        var request = request
        let body = try await request.decodeJSON(as: PayOrderRequest.self, context: context)
        return try await marketplace.pay(
            buyerId: try context.requireUser(), orderId: try context.parameters.require("id"), body,
            session: context.session)
    }

    /// `POST /orders/{id}/pay/options` (the buyer, a `wallet` order) → the passkey's request options
    /// for the order's amount and seller; 422 `insufficient_funds` before any gesture.
    @Sendable func payOptions(_ request: Request, context: AppRequestContext) async throws
        -> AuthenticationOptionsResponse
    {
        try await throttle.check(
            request, context: context, address: [.challengeAddress], account: [.challengeAccount],
            key: try context.requireUser())
        return try await marketplace.walletPaymentOptions(
            buyerId: try context.requireUser(), orderId: try context.parameters.require("id"),
            session: context.session)
    }

    /// `GET /orders/{id}/payment` → the provider's current word on the payment, applied to the order.
    @Sendable func payment(_ request: Request, context: AppRequestContext) async throws -> OrderPaymentResponse {
        try await marketplace.payment(userId: try context.requireUser(), orderId: try context.parameters.require("id"))
    }

    /// `POST /orders/{id}/payment/cancel` (the buyer) → the order back in `NEW`, its payment canceled.
    @Sendable func cancelPayment(_ request: Request, context: AppRequestContext) async throws -> OrderPaymentResponse {
        try await marketplace.cancelPayment(
            buyerId: try context.requireUser(), orderId: try context.parameters.require("id"))
    }

    /// `POST /orders/{id}/ship` (the seller) → the order, `SHIPPED`.
    @Sendable func ship(_ request: Request, context: AppRequestContext) async throws -> OrderResponse {
        try await marketplace.ship(sellerId: try context.requireUser(), orderId: try context.parameters.require("id"))
    }

    /// `POST /orders/{id}/complete` (the buyer, on receipt) → the order, `COMPLETED`; the seller's
    /// money leaves escrow.
    @Sendable func complete(_ request: Request, context: AppRequestContext) async throws -> OrderResponse {
        try await marketplace.complete(
            buyerId: try context.requireUser(), orderId: try context.parameters.require("id"))
    }

    /// `GET /user/proceeds` → what the marketplace holds for and owes the seller.
    @Sendable func proceeds(_ request: Request, context: AppRequestContext) async throws -> ProceedsResponse {
        try await marketplace.proceeds(sellerId: try context.requireUser())
    }

    /// `POST /payment-methods/cards` → 201 the saved card.
    @Sendable func addCard(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        SavedCardResponse
    > {
        var request = request
        let body = try await request.decodeJSON(as: AddCardRequest.self, context: context)
        return .init(status: .created, response: try await marketplace.addCard(userId: try context.requireUser(), body))
    }

    /// `GET /payment-methods/cards` → the user's saved cards.
    @Sendable func cards(_ request: Request, context: AppRequestContext) async throws -> SavedCardList {
        try await marketplace.cards(userId: try context.requireUser())
    }
}

extension OrderPaymentResponse: ResponseEncodable {}
extension SavedCardResponse: ResponseEncodable {}
extension SavedCardList: ResponseEncodable {}
extension OrderResponse: ResponseEncodable {}
extension ProfileResponse: ResponseEncodable {}
extension AddressBody: ResponseEncodable {}
extension ProductResponse: ResponseEncodable {}
extension BidResponse: ResponseEncodable {}
extension CheckoutTotals: ResponseEncodable {}
extension ProceedsResponse: ResponseEncodable {}
extension ProductList: ResponseEncodable {}
extension BidList: ResponseEncodable {}
extension OrderList: ResponseEncodable {}
