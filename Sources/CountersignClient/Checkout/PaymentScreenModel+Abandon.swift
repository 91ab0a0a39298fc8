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
        } catch let error as CountersignClientError where error.errorCode == .orderPaid {
            if let order = try? await client.order(bidId: checkout.bid.id), order.status.isPaid {
                return show(.confirmed(order))
            }
            return reopen(checkout, .error(error))
        } catch {
            return reopen(checkout, .error(CountersignClientError(error)))
        }
    }

    /// A payment left waiting (the payer came back without finishing, or it is failing) is stopped so
    /// the buyer can choose again: the server cancels it with the provider and the order returns to
    /// `NEW`, the choices editable. If it went through meanwhile, the confirmation shows instead.
    @discardableResult
    public func cancelPayment() async -> State {
        let checkout: Checkout
        switch screen.value {
        case .ready(let shown), .paymentFailing(let shown, _), .statusUnknown(let shown, _, _): checkout = shown
        default: return screen.value
        }
        guard !busy, let order = checkout.order, order.status == .paymentPending else { return screen.value }
        busy = true
        defer { busy = false }
        do {
            let answer = try await client.cancelPayment(orderId: order.id)
            var next = checkout
            next.order?.status = answer.orderStatus
            if answer.orderStatus.isPaid, let paid = next.order { return show(.confirmed(paid)) }
            return reopen(next, nil)
        } catch let error as CountersignClientError where error.errorCode == .orderPaid {
            if let current = try? await client.order(bidId: checkout.bid.id), current.status.isPaid {
                return show(.confirmed(current))
            }
            return reopen(checkout, .error(error))
        } catch {
            return reopen(checkout, .error(CountersignClientError(error)))
        }
    }

    /// The screen again with `notice`; totals that were being fetched are fetched again, since an
    /// answer that arrived while the screen was away was dropped.
    private func reopen(_ checkout: Checkout, _ notice: Notice?) -> State {
        let state = show(back(checkout, notice))
        if case .refreshing = checkout.totals { scheduleTotals() }
        return state
    }
}
