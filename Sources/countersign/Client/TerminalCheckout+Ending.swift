import CountersignAPI
import CountersignClient
import CountersignCore

extension TerminalCheckout {
    /// Prints where the payment ended and turns the model's state into the command's ending; after an
    /// abandoned buy-now, asks whether to withdraw it.
    static func finish(_ model: PaymentScreenModel, _ state: PaymentScreenModel.State, _ answers: CheckoutAnswers) async
        -> CheckoutEnding
    {
        switch state {
        case .confirmed(let order):
            print("── Order confirmed ──")
            print(
                "  Order \(order.id): \(order.status.rawValue), \(Formatting.money(order.totals.total, order.totals.currency)) paid by \(label(order.paymentMethod))"
            )
            return .paid(order)
        case .ready(let checkout):
            switch checkout.notice {
            case .paymentFailed(let failure)?:
                print(
                    "  Payment failed: \(failure.code): \(failure.message). Nothing was taken; your choices are kept.")
                return .failed(failure.code)
            case .paymentAbandoned?:
                print("  You came back without finishing; the payment waits for you, your choices kept.")
                guard checkout.bid.buyNow,
                    TerminalInput.confirm(
                        "Give up this buy-now so others can buy it?", preset: answers.withdrawIfAbandoned)
                else {
                    return .pending(orderId: checkout.order?.id)
                }
                let withdrawn = await model.abandon()
                if case .withdrawn(let bid) = withdrawn {
                    print(
                        "  Buy-now withdrawn (\(bid.status.rawValue)): nothing paid; the product can be bid on again.")
                    return .withdrawn(bid)
                }
                return await finish(model, withdrawn, CheckoutAnswers())
            case .passkeyRequired?:
                print(
                    "  Only your passkey can pay this order: it is over what the PIN alone may pay. Nothing was paid.")
                return .failed("passkey_required")
            case .error(let error)?:
                print("  \(Formatting.error(error))")
                return .failed(error.code ?? "error")
            case nil:
                return .failed("back on the payment screen")
            }
        case .paymentFailing(_, let orderId):
            print(
                "  The provider has no answer yet. The payment may still complete: run the command again to check (Pay resumes it, never twice)."
            )
            return .pending(orderId: orderId)
        case .statusUnknown(_, let orderId, let error):
            print(
                "  Whether the payment went through is not known (\(Formatting.error(error))); run the command again to check."
            )
            return .pending(orderId: orderId)
        default:
            return unavailable(state)
        }
    }

    /// Why the bid cannot be paid here, printed.
    static func unavailable(_ state: PaymentScreenModel.State) -> CheckoutEnding {
        let why: String
        switch state {
        case .loadFailed(let error): why = Formatting.error(error)
        case .unavailable(.ownProduct): why = "this is your own product"
        case .unavailable(.bidNotForProduct): why = "the bid is for another product"
        case .unavailable(.bidNotAccepted(let status)):
            why = "the bid is \(status.rawValue); only an accepted bid is paid"
        case .unavailable(.orderClosed(let status)): why = "the bid's order is \(status.rawValue)"
        case .withdrawn(let bid): why = "the bid was withdrawn (\(bid.status.rawValue))"
        default: why = "the payment screen is not available"
        }
        print("  Cannot pay: \(why)")
        return .unavailable(why)
    }
}
