import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation

/// What the buyer answers on the payment screen: given in advance (flags, the demo) or, when nil,
/// asked on the terminal.
struct CheckoutAnswers: Sendable {
    /// `pickup` or a shipping method id.
    var delivery: String?
    /// The id of one of the buyer's addresses, for shipping.
    var address: String?
    var method: PaymentMethodKind?
    /// The id of a saved card.
    var card: String?
    /// A card number to save (with `expiry`) and pay with.
    var cardNumber: String?
    var expiry: (month: Int, year: Int) = (12, Calendar(identifier: .gregorian).component(.year, from: Date()) + 2)
    /// The answer to "Pay …?".
    var pay: Bool?
    /// After an abandoned buy-now payment: withdraw the bid (true) or keep it for later (false).
    var withdrawIfAbandoned: Bool?
    /// A payment left waiting on the bid's order is canceled first, so the choices can change.
    var cancelPending = false
}

/// How a checkout ended, for the exit status and the demo's verdict.
enum CheckoutEnding: Sendable, Equatable {
    case paid(OrderResponse)
    /// The attempt failed (declined…) or a call was refused; nothing was taken.
    case failed(String)
    /// The payment may still complete (the provider had no answer, or the payer left it waiting).
    case pending(orderId: String?)
    /// The buy-now was withdrawn: nothing paid, the product is free again.
    case withdrawn(BidResponse)
    /// The bid cannot be paid here, or the screen could not load.
    case unavailable(String)

    var paid: Bool { if case .paid = self { true } else { false } }
}

/// The marketplace payment screen on a terminal: the `PaymentScreenModel` rendered as a page of prompts
/// (delivery, address, payment method, live totals), the redirect as a link, polling with a spinner.
enum TerminalCheckout {
    static func run(
        api: CountersignAPIClient, bidId: String, productId: String, answers: CheckoutAnswers,
        redirects: any RedirectHandler,
        returnURL: String? = nil, timing: PaymentScreenModel.Timing = .init(),
        authorizeWallet: (@Sendable (OrderResponse) async throws -> PayOrderRequest?)? = nil
    ) async -> CheckoutEnding {
        let model = PaymentScreenModel(
            client: api, redirects: redirects, returnURL: returnURL, timing: timing, authorizeWallet: authorizeWallet)
        print("── Payment ──")
        guard case .ready(let checkout) = await model.load(bidId: bidId, productId: productId) else {
            return unavailable(model.screen.value)
        }
        print(
            "  \(checkout.product.title) — \(Formatting.money(checkout.bid.amount, checkout.bid.currency))\(checkout.bid.buyNow ? " (buy now)" : " (your accepted bid)")"
        )
        var screen = checkout
        if answers.cancelPending, !checkout.isEditable {
            switch await model.cancelPayment() {
            case .ready(let reopened) where reopened.isEditable:
                print("  The payment left waiting was canceled; nothing was taken. Choose again.")
                screen = reopened
            case let other:
                return await finish(model, other, answers)
            }
        }
        if let ending = await choose(model, screen, answers) { return ending }
        guard case .ready(let ready) = model.screen.value, case .ready(let totals) = ready.totals else {
            return .failed("no totals for these choices")
        }
        print(lines(totals))
        guard TerminalInput.confirm("Pay \(Formatting.money(totals.total, totals.currency))?", preset: answers.pay)
        else {
            return .failed("not paid: the buyer said no")
        }
        let spinner = Spinner()
        let watching = Task { for await state in model.screen.values() { show(state, spinner) } }
        let state = await model.pay()
        watching.cancel()
        spinner.stop()
        return await finish(model, state, answers)
    }

    /// The choices, in the page's order; an ending when one cannot be made.
    private static func choose(_ model: PaymentScreenModel, _ checkout: Checkout, _ answers: CheckoutAnswers) async
        -> CheckoutEnding?
    {
        guard checkout.isEditable else {
            print("  A payment for this order is under way; Pay resumes it with the choices it was started with.")
            return nil
        }
        let deliveries = checkout.deliveryOptions.map {
            Option(id: $0.id, label: $0.name, disabled: $0.disabled.map(reason))
        }
        guard
            let delivery = pick(
                "Delivery", deliveries, preset: answers.delivery, current: checkout.choices.delivery, flag: "--delivery"
            )
        else {
            return .failed("no delivery chosen")
        }
        guard await model.chooseDelivery(delivery) else { return .failed("delivery \(delivery) cannot be chosen") }
        if delivery != "pickup" {
            let addresses = checkout.profile.addresses.map {
                Option(id: $0.id ?? "", label: "\($0.name), \($0.line1), \($0.city) \($0.country)", disabled: nil)
            }
            guard
                let address = pick(
                    "Ship to", addresses, preset: answers.address, current: checkout.choices.addressId,
                    flag: "--address")
            else {
                return .failed("no address chosen")
            }
            guard await model.chooseAddress(address) else { return .failed("address \(address) cannot be chosen") }
        }
        var givenCard = answers.card
        if let number = answers.cardNumber {
            // The provider keeps only brand, last four and expiry: a card with the same last four and
            // expiry is this one, saved on an earlier run, so it is not saved again.
            let last4 = String(number.filter(\.isNumber).suffix(4))
            if let saved = (model.screen.value.checkout ?? checkout).cards.first(where: {
                $0.last4 == last4 && $0.expMonth == answers.expiry.month && $0.expYear == answers.expiry.year
            }) {
                print("  Using your saved card \(cardLabel(saved)) (\(saved.id)): same last four digits and expiry")
                givenCard = givenCard ?? saved.id
            } else {
                do {
                    let saved = try await model.addCard(
                        AddCardRequest(number: number, expMonth: answers.expiry.month, expYear: answers.expiry.year))
                    print("  Saved card \(cardLabel(saved)) (\(saved.id))")
                    givenCard = givenCard ?? saved.id
                } catch {
                    return .failed("card not saved: \(Formatting.error(error))")
                }
            }
        }
        let current = model.screen.value.checkout ?? checkout
        let methods = current.paymentOptions.map {
            Option(id: $0.kind.rawValue, label: label($0.kind), disabled: $0.disabled.map(reason))
        }
        guard
            let method = pick(
                "Pay with", methods, preset: answers.method?.rawValue, current: current.choices.paymentMethod?.rawValue,
                flag: "--method"
            ).flatMap(PaymentMethodKind.init(rawValue:))
        else {
            return .failed("no payment method chosen")
        }
        guard await model.choosePaymentMethod(method) else { return .failed("\(method.rawValue) cannot be chosen") }
        if method == .card {
            let cards = (model.screen.value.checkout ?? current).cards.map {
                Option(id: $0.id, label: cardLabel($0), disabled: nil)
            }
            guard
                let card = pick(
                    "Card", cards, preset: givenCard, current: model.screen.value.checkout?.choices.cardId,
                    flag: "--card")
            else { return .failed("no card chosen") }
            guard await model.chooseCard(card) else { return .failed("card \(card) cannot be chosen") }
        }
        if case .failed(let error)? = await model.settledTotals() {
            return .failed("totals refused: \(Formatting.error(error))")
        }
        return nil
    }

    private struct Option {
        let id: String
        let label: String
        let disabled: String?
    }

    /// Prints the options and returns the chosen id: `preset` when given (echoed), else the typed
    /// number or id, else (no terminal, nothing typed) `current`. A disabled or unknown choice is nil.
    private static func pick(_ title: String, _ options: [Option], preset: String?, current: String?, flag: String)
        -> String?
    {
        print("  \(title):")
        for (index, option) in options.enumerated() {
            let marker = option.id == current ? "•" : " "
            print("   \(marker) \(index + 1). \(option.label)\(option.disabled.map { "  — unavailable: \($0)" } ?? "")")
        }
        var answer = preset
        if let preset {
            print("    → \(preset)  (given in advance)")
        } else if TerminalInput.isInteractive {
            print("    Choose 1–\(options.count)\(current.map { " (Enter keeps \($0))" } ?? ""): ", terminator: "")
            fflush(nil)
            let typed = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
            answer =
                typed.isEmpty
                ? current
                : (Int(typed).flatMap { options.indices.contains($0 - 1) ? options[$0 - 1].id : nil } ?? typed)
        } else {
            answer = current
            if let current { print("    → \(current)  (the screen's choice; no terminal to ask)") }
        }
        guard let answer, let option = options.first(where: { $0.id == answer }) else {
            print(
                "    \(answer.map { "\($0) is not one of the options" } ?? "nothing chosen (no terminal to ask; pass \(flag))")"
            )
            return nil
        }
        if let disabled = option.disabled {
            print("    \(option.label) is unavailable: \(disabled)")
            return nil
        }
        return option.id
    }

    /// The live payment steps: a spinner line for each, the redirect shown by the handler.
    private static func show(_ state: PaymentScreenModel.State, _ spinner: Spinner) {
        guard case .paying(_, let step) = state else { return }
        switch step {
        case .placingOrder: spinner.start("placing the order")
        case .startingPayment: spinner.start("starting the payment with the provider")
        case .authorizing: spinner.start("paying from the wallet")
        case .redirected: spinner.stop()
        case .confirming(let attempt): spinner.start("asking the server where the payment stands (\(attempt))")
        }
    }

    static func lines(_ totals: CheckoutTotals) -> String {
        var text = ""
        for line in totals.lines {
            text +=
                "    \(line.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(Formatting.money(line.amount, totals.currency))\n"
        }
        return text
            + "    \("Total".padding(toLength: 28, withPad: " ", startingAt: 0)) \(Formatting.money(totals.total, totals.currency))"
    }

    /// `Visa •••• 4242, 12/2028`.
    static func cardLabel(_ card: SavedCardResponse) -> String {
        "\(Formatting.brand(card.brand)) •••• \(card.last4), \(card.expMonth)/\(card.expYear)"
    }

    static func label(_ kind: PaymentMethodKind) -> String {
        switch kind {
        case .card: "Card"
        case .ideal: "iDEAL"
        case .bancontact: "Bancontact"
        case .wallet: "Wallet"
        }
    }

    private static func reason(_ disabled: Checkout.Disabled) -> String {
        switch disabled {
        case .noAddress: "add a shipping address first"
        case .noSavedCard: "save a card first (--card-number)"
        }
    }
}
