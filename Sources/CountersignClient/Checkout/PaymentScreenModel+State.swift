import CountersignAPI
import CountersignCore
import Foundation

extension PaymentScreenModel {
    /// What the payment screen shows.
    public enum State: Sendable, Equatable {
        /// Nothing loaded yet.
        case idle
        /// The buyer, the product, the bid, its order and the cards are being fetched.
        case loading
        /// They could not be fetched; `load` may be tried again.
        case loadFailed(CountersignClientError)
        /// This bid cannot be paid here; the screen shows why.
        case unavailable(Unavailable)
        /// The screen, ready for choices and Pay.
        case ready(Checkout)
        /// Pay was pressed; the payment is at `step`. Choices are frozen.
        case paying(Checkout, PaymentStep)
        /// The provider still had no answer after every poll. The payment may still complete: check
        /// again later (`checkAgain`) or pay again to resume it; it is never started twice.
        case paymentFailing(Checkout, orderId: String)
        /// The server could not be reached after the payment was sent, so whether it was taken is not
        /// known; `checkAgain` asks.
        case statusUnknown(Checkout, orderId: String, CountersignClientError)
        /// Paid: the order confirmation.
        case confirmed(OrderResponse)
        /// The buy-now bid is being withdrawn.
        case withdrawing(Checkout)
        /// The buy-now bid was withdrawn: nothing is paid and the product can be bid on again.
        case withdrawn(BidResponse)

        /// The screen's contents, in the states that show the screen.
        public var checkout: Checkout? {
            switch self {
            case .ready(let checkout), .paying(let checkout, _), .paymentFailing(let checkout, _),
                .statusUnknown(let checkout, _, _), .withdrawing(let checkout):
                checkout
            case .idle, .loading, .loadFailed, .unavailable, .confirmed, .withdrawn:
                nil
            }
        }
    }

    /// Why a bid cannot be paid on this screen.
    public enum Unavailable: Sendable, Equatable {
        /// The buyer sells this product; nobody buys their own (the server refuses it too).
        case ownProduct
        /// The bid is for another product than the one shown.
        case bidNotForProduct
        /// Only an accepted bid can be paid; this one is in another status.
        case bidNotAccepted(BidStatus)
        /// The bid's order was cancelled or expired.
        case orderClosed(OrderStatus)
    }

    /// Where a payment in progress is.
    public enum PaymentStep: Sendable, Equatable {
        /// The order is being created, or reused with the current choices.
        case placingOrder
        /// The payment is being started with the provider.
        case startingPayment(orderId: String)
        /// A wallet payment: the device key (or the PIN) authorizes it, then the server pays it at once.
        case authorizing(orderId: String)
        /// The payer is on the provider's page (3-D Secure, iDEAL, Bancontact).
        case redirected(URL)
        /// The server is asked where the payment stands: poll `attempt` of at most 1 + the retries.
        case confirming(attempt: Int)
    }

    /// What the screen tells a buyer brought back to it, their choices kept.
    public enum Notice: Sendable, Equatable {
        /// The attempt failed (declined, insufficient funds, not authorized); nothing was taken.
        case paymentFailed(OrderPaymentResponse.Failure)
        /// The payer came back without finishing; the payment waits for them and can be resumed
        /// with Pay, so the choices stay frozen until it ends.
        case paymentAbandoned
        /// The passkey could not pay and the PIN alone may not pay this order (it is over the PIN
        /// allowance): nothing was paid, no PIN was asked for; the payer tries the passkey again.
        case passkeyRequired(AirtimePayment.PINFallbackReason)
        /// A call failed or was refused before a payment was under way.
        case error(CountersignClientError)
    }
}
