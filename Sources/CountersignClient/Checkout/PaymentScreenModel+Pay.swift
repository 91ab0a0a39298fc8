import CountersignAPI
import CountersignCore
import Foundation

extension PaymentScreenModel {
    /// Pays with the current choices: creates the order or reuses the bid's, starts the payment,
    /// follows the provider's redirect, then asks the server until it knows. Ends confirmed, back on
    /// the screen (choices kept, with why), `paymentFailing`, or `statusUnknown`. From those two it
    /// resumes the payment under way. Pressed again while running, it does nothing.
    @discardableResult
    public func pay() async -> State {
        guard !busy, let checkout = payable(screen.value), let request = checkout.totalsRequest else {
            return screen.value
        }
        busy = true
        defer { busy = false }
        return show(await payment(checkout, request))
    }

    /// From `paymentFailing` or `statusUnknown`: asks the server once more where the payment stands.
    @discardableResult
    public func checkAgain() async -> State {
        let orderId: String
        switch screen.value {
        case .paymentFailing(_, let id), .statusUnknown(_, let id, _): orderId = id
        default: return screen.value
        }
        guard !busy, let checkout = screen.value.checkout else { return screen.value }
        busy = true
        defer { busy = false }
        return show(await poll(checkout, orderId: orderId, attempts: 1, stillPending: nil))
    }

    /// The checkout Pay may run on: the screen with complete choices and their totals, or a payment
    /// that is failing or unknown, to resume.
    private func payable(_ state: State) -> Checkout? {
        switch state {
        case .ready(let checkout), .paymentFailing(let checkout, _), .statusUnknown(let checkout, _, _):
            checkout.canPay ? checkout : nil
        default:
            nil
        }
    }

    private func payment(_ checkout: Checkout, _ request: CheckoutTotalsRequest) async -> State {
        var paying = checkout
        paying.notice = nil
        screen.set(.paying(paying, .placingOrder))
        let order: OrderResponse
        do {
            order = try await client.placeOrder(request)
        } catch {
            // Nothing was sent to the provider: back to the screen, nothing taken.
            return back(paying, .error(CountersignClientError(error)))
        }
        paying.order = order
        if order.status.isPaid { return .confirmed(order) }
        screen.set(
            .paying(
                paying,
                request.paymentMethod == .wallet ? .authorizing(orderId: order.id) : .startingPayment(orderId: order.id)
            ))
        var body = PayOrderRequest(
            paymentMethodId: request.paymentMethod == .card ? paying.choices.cardId : nil, returnURL: returnURL)
        if request.paymentMethod == .wallet {
            // The passkey (or the PIN) authorizes the order's total to its seller; without it, nothing is paid.
            do {
                guard let authorized = try await authorizeWallet?(order) else {
                    return back(
                        paying,
                        .error(
                            .api(
                                status: 0, code: "authorization_required",
                                message: "The wallet payment was not authorized. Nothing was paid.", retryAfter: nil)))
                }
                body = authorized
            } catch let needed as AirtimePayment.PasskeyRequired {
                return back(paying, .passkeyRequired(needed.reason))
            } catch {
                return back(paying, .error(CountersignClientError(error)))
            }
        }
        let started: OrderPaymentResponse
        do {
            started = try await client.pay(orderId: order.id, body)
        } catch let error as CountersignClientError where error.isRetryable || error.errorCode == .orderPaid {
            // The payment may have started (no answer) or finished meanwhile: the server knows.
            return await poll(paying, orderId: order.id, attempts: 1 + timing.pollRetries, stillPending: nil)
        } catch {
            return back(paying, .error(CountersignClientError(error)))
        }
        return await follow(started, paying)
    }

    /// Where `response` leads: confirmed, back to the screen, or through the redirect and the polls.
    private func follow(_ response: OrderPaymentResponse, _ checkout: Checkout) async -> State {
        var checkout = checkout
        checkout.order?.status = response.orderStatus
        if let settled = settled(response, checkout) { return settled }
        guard let redirect = response.redirectURL else {
            return await poll(checkout, orderId: response.orderId, attempts: 1 + timing.pollRetries, stillPending: nil)
        }
        guard let url = URL(string: redirect) else {
            return back(checkout, .error(.decoding("redirectURL is not a URL: \(redirect)")))
        }
        screen.set(.paying(checkout, .redirected(url)))
        switch await redirects.open(url) {
        case .returned:
            return await poll(checkout, orderId: response.orderId, attempts: 1 + timing.pollRetries, stillPending: nil)
        case .abandoned:
            // One look in case the payment went through before the payer walked away; otherwise it
            // waits for them, and Pay resumes it.
            return await poll(checkout, orderId: response.orderId, attempts: 1, stillPending: .paymentAbandoned)
        }
    }

    /// Asks the server up to `attempts` times, `pollInterval` apart, until the payment is settled.
    /// Still pending at the end: back to the screen with `stillPending`, or, when nil, `paymentFailing`.
    func poll(_ checkout: Checkout, orderId: String, attempts: Int, stillPending: Notice?) async -> State {
        var checkout = checkout
        for attempt in 1...max(1, attempts) {
            if attempt > 1 {
                guard (try? await timing.sleep(timing.pollInterval)) != nil else { break }
            }
            screen.set(.paying(checkout, .confirming(attempt: attempt)))
            let response: OrderPaymentResponse
            do {
                response = try await client.payment(orderId: orderId)
            } catch {
                return .statusUnknown(checkout, orderId: orderId, CountersignClientError(error))
            }
            checkout.order?.status = response.orderStatus
            if let settled = settled(response, checkout) { return settled }
        }
        if let stillPending { return back(checkout, stillPending) }
        return .paymentFailing(checkout, orderId: orderId)
    }

    /// The state a settled payment ends in; nil while it is pending.
    private func settled(_ response: OrderPaymentResponse, _ checkout: Checkout) -> State? {
        switch response.orderStatus {
        case .paid, .shipped, .completed:
            guard var order = checkout.order else { return nil }
            order.status = response.orderStatus
            return .confirmed(order)
        case .new:
            // A failed attempt returns the order to NEW with the reason; the buyer may choose again.
            let failure =
                response.error
                ?? OrderPaymentResponse.Failure(code: "payment_failed", message: "The payment did not go through.")
            return back(checkout, .paymentFailed(failure))
        case .canceled, .expired:
            return .unavailable(.orderClosed(response.orderStatus))
        case .paymentPending:
            return nil
        }
    }

    /// The screen again, choices kept, with `notice`.
    func back(_ checkout: Checkout, _ notice: Notice?) -> State {
        var checkout = checkout
        checkout.notice = notice
        return .ready(checkout)
    }

    /// Shows `state` and returns it.
    func show(_ state: State) -> State {
        screen.set(state)
        return state
    }
}
