import CountersignAPI
import CountersignCore

extension PaymentScreenModel {
    /// Enters the screen for the accepted bid `bidId` on `productId` (seed steps 1–3): fetches the
    /// buyer (merchant flag, addresses), the product (delivery methods), the bid, its order if one
    /// is pending (restoring its choices and totals) and the saved cards, then shows what applies.
    /// A paid order goes straight to its confirmation.
    @discardableResult
    public func load(bidId: String, productId: String) async -> State {
        guard !busy else { return screen.value }
        busy = true
        defer { busy = false }
        revision &+= 1
        cancelTotals()
        screen.set(.loading)
        let state: State
        do {
            state = try await loaded(bidId: bidId, productId: productId)
        } catch {
            state = .loadFailed(CountersignClientError(error))
        }
        screen.set(state)
        if case .ready(let checkout) = state, checkout.order == nil { scheduleTotals() }
        return state
    }

    /// One at a time, in the order the screen needs them: the later fetches depend on the earlier.
    private func loaded(bidId: String, productId: String) async throws -> State {
        let profile = try await client.profile()
        let product = try await client.product(id: productId)
        // Never offered, merchant or not; the server refuses it too.
        guard product.sellerId != profile.userId else { return .unavailable(.ownProduct) }
        let bid = try await client.bid(id: bidId)
        guard bid.productId == product.id else { return .unavailable(.bidNotForProduct) }
        // A bid names its order once there is one, so a first visit asks for none (and logs no 404).
        let order = bid.orderId == nil ? nil : try await client.order(bidId: bid.id)
        if let order, order.status.isPaid { return .confirmed(order) }
        guard bid.status == .accepted else { return .unavailable(.bidNotAccepted(bid.status)) }
        if let order, !order.status.isOpen { return .unavailable(.orderClosed(order.status)) }
        let cards = try await client.cards()
        return .ready(Checkout(profile: profile, product: product, bid: bid, order: order, cards: cards))
    }
}
