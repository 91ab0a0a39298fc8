import CountersignAPI
import CountersignCore

extension PaymentScreenModel {
    /// Buy-now only (a bid the buyer made by pressing Buy now, not an offer the seller accepted): the
    /// buyer gives up. The bid is withdrawn; the server cancels its order and any payment left waiting,
    /// so the product can be bid on again. If the payment went through meanwhile, the confirmation
    /// shows instead; if it cannot be stopped now, the screen says so and nothing changes.
    @discardableResult
    public func abandon() async -> State {
        guard !busy, let checkout = screen.value.checkout, checkout.bid.buyNow else { return screen.value }
        busy = true
        defer { busy = false }
        screen.set(.withdrawing(checkout))
        do {
            return show(.withdrawn(try await client.withdrawBid(id: checkout.bid.id)))
        } catch let error as CountersignClientError where error.code == "order_paid" {
            if let order = try? await client.order(bidId: checkout.bid.id), order.status.isPaid { return show(.confirmed(order)) }
            return reopen(checkout, .error(error))
        } catch {
            return reopen(checkout, .error(CountersignClientError(error)))
        }
    }

    /// The screen again with `notice`; totals that were being fetched are fetched again, since an
    /// answer that arrived while the screen was away was dropped.
    private func reopen(_ checkout: Checkout, _ notice: Notice) -> State {
        let state = show(back(checkout, notice))
        if case .refreshing = checkout.totals { scheduleTotals() }
        return state
    }
}
