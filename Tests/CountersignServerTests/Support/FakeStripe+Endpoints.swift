import Foundation

extension FakeStripe.State {
    typealias Answer = FakeStripe.Answer

    /// `POST /v1/customers`.
    mutating func createCustomer(_ form: FakeForm) -> Answer {
        if let refusal = Self.unknown(form, allowed: ["email", "name", "description"]) { return refusal }
        let id = Self.newId("cus")
        customers[id] = form.metadata
        return Self.ok([
            "id": .string(id), "object": "customer", "metadata": .object(form.metadata.mapValues(FakeJSON.string)),
            "livemode": false,
        ])
    }

    /// `GET /v1/customers/{id}/payment_methods?type=card`: newest first, as Stripe lists.
    func listPaymentMethods(customer: String, _ form: FakeForm) -> Answer {
        if let refusal = Self.unknown(form, allowed: ["type", "limit", "starting_after", "ending_before"]) {
            return refusal
        }
        guard customers[customer] != nil else { return Self.noSuch("customer", customer, status: 404) }
        let limit = form["limit"].flatMap(Int.init) ?? 10
        let attached = paymentMethods.values.filter {
            $0.customer == customer && (form["type"] == nil || $0.type == form["type"])
        }
        .sorted { ($0.created, $0.id) > ($1.created, $1.id) }
        return Self.ok([
            "object": "list", "url": .string("/v1/customers/\(customer)/payment_methods"),
            "has_more": .bool(attached.count > limit),
            "data": .array(attached.prefix(limit).map(\.json)),
        ])
    }

    /// `POST /v1/payment_methods/{id}/attach`: a test token (`pm_card_visa`…) becomes a new card
    /// attached to the customer.
    mutating func attach(_ id: String, _ form: FakeForm) -> Answer {
        if let refusal = Self.unknown(form, allowed: ["customer"]) { return refusal }
        guard let customer = form["customer"] else { return Self.missing("customer") }
        guard customers[customer] != nil else { return Self.noSuch("customer", customer, param: "customer") }
        if let refusal = FakePaymentMethod.refusedAtAttach[id] {
            return Self.error(
                402, type: "card_error", code: "card_declined", message: refusal.message,
                extra: ["decline_code": .string(refusal.declineCode)])
        }
        if let token = FakePaymentMethod.testTokens[id] {
            // Created one second apart so that newest-first is well defined.
            let created = (paymentMethods.values.map(\.created).max() ?? Self.now) + 1
            let card = FakePaymentMethod(
                id: Self.newId("pm"), type: "card", customer: customer, brand: token.brand, last4: token.last4,
                behaviour: token.behaviour,
                billingName: nil, created: created
            )
            paymentMethods[card.id] = card
            return Self.ok(card.json)
        }
        guard var method = paymentMethods[id] else { return Self.noSuch("PaymentMethod", id, status: 404) }
        guard method.customer == nil || method.customer == customer else {
            return Self.error(
                400, code: "payment_method_unexpected_state",
                message: "The payment method you provided has already been attached to a customer.")
        }
        method.customer = customer
        paymentMethods[id] = method
        return Self.ok(method.json)
    }

    /// `POST /v1/payment_intents`, confirmed at once with `confirm=true`.
    mutating func createIntent(_ form: FakeForm) -> Answer {
        let allowed: Set<String> = [
            "amount", "currency", "payment_method_types[]", "confirm", "return_url", "customer", "payment_method",
            "payment_method_data[type]", "payment_method_data[billing_details][name]", "description",
        ]
        if let refusal = Self.unknown(form, allowed: allowed) { return refusal }
        guard let amountText = form["amount"] else { return Self.missing("amount") }
        guard let amount = Int64(amountText), amount > 0 else {
            return Self.error(
                400, code: "parameter_invalid_integer", message: "Invalid integer: \(amountText)", param: "amount")
        }
        guard let currency = form["currency"]?.lowercased(), currency.count == 3 else {
            return Self.missing("currency")
        }
        if currency == "eur", amount < 50 {
            return Self.error(
                400, code: "amount_too_small", message: "Amount must be at least €0.50 eur", param: "amount")
        }
        let types = form.all("payment_method_types[]").isEmpty ? ["card"] : form.all("payment_method_types[]")
        if let customer = form["customer"], customers[customer] == nil {
            return Self.noSuch("customer", customer, param: "customer")
        }
        let confirm = form["confirm"] == "true"
        if form["return_url"] != nil, !confirm {
            return Self.error(400, message: "You can only pass return_url when confirm is true.", param: "return_url")
        }

        var method: FakePaymentMethod?
        if let id = form["payment_method"] {
            guard let card = paymentMethods[id] else {
                return Self.noSuch("PaymentMethod", id, param: "payment_method")
            }
            guard card.customer == nil || card.customer == form["customer"] else {
                return Self.error(
                    400,
                    message:
                        "The provided PaymentMethod belongs to a different Customer than the one on this PaymentIntent.",
                    param: "payment_method")
            }
            method = card
        } else if let type = form["payment_method_data[type]"] {
            guard ["ideal", "bancontact"].contains(type) else {
                return Self.error(
                    400, code: "parameter_invalid_string", message: "Invalid payment_method_data[type]: \(type)",
                    param: "payment_method_data[type]")
            }
            let name = form["payment_method_data[billing_details][name]"]
            if type == "bancontact", name == nil { return Self.missing("payment_method_data[billing_details][name]") }
            let bank = FakePaymentMethod(
                id: Self.newId("pm"), type: type, customer: nil, brand: nil, last4: nil, behaviour: .redirects,
                billingName: name, created: Self.now)
            paymentMethods[bank.id] = bank
            method = bank
        }
        if let method, !types.contains(method.type) {
            return Self.error(
                400, code: "payment_intent_incompatible_payment_method",
                message:
                    "The PaymentMethod provided (\(method.type)) is not allowed for this PaymentIntent: \(types.joined(separator: ", ")).",
                param: "payment_method"
            )
        }
        if confirm, let method, method.type != "card", form["return_url"] == nil {
            return Self.error(
                400, message: "A return_url must be specified to confirm a \(method.type) payment.", param: "return_url"
            )
        }
        var intent = FakePaymentIntent(
            id: Self.newId("pi"), amount: amount, currency: currency,
            status: method == nil ? "requires_payment_method" : "requires_confirmation",
            paymentMethodTypes: types, customer: form["customer"], paymentMethod: method?.id, metadata: form.metadata,
            returnURL: form["return_url"], created: Self.now
        )
        guard confirm, let method else {
            intents[intent.id] = intent
            return Self.ok(intent.json)
        }
        switch method.behaviour {
        case .succeeds:
            intent.status = "succeeded"
        case .redirects where method.type == "card":
            intent.requireAction(
                redirectTo: "https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_fake&payment_intent=\(intent.id)"
            )
        case .redirects:
            intent.requireAction(
                redirectTo: "https://pm-redirects.stripe.com/authorize/acct_fake/pa_nonce_\(intent.id.dropFirst(3))")
        case .declines(let declineCode, let message):
            // Stripe's documented decline: 402, the intent back in requires_payment_method with the
            // error as its last_payment_error, and the intent inside the error.
            let failure: FakeJSON = [
                "type": "card_error", "code": "card_declined", "decline_code": .string(declineCode),
                "message": .string(message),
                "payment_method": method.json,
            ]
            intent.status = "requires_payment_method"
            intent.paymentMethod = nil
            intent.lastPaymentError = failure
            intents[intent.id] = intent
            return Answer(
                status: 402, body: FakeJSON.object(["error": failure.merging(["payment_intent": intent.json])]).bytes)
        }
        intents[intent.id] = intent
        return Self.ok(intent.json)
    }

    /// `POST /v1/refunds` with `payment_intent` and `amount`: of a succeeded intent, never more in
    /// total than it took (400 `amount_too_large`); succeeds at once, as a card refund in test mode.
    mutating func createRefund(_ form: FakeForm) -> Answer {
        if let refusal = Self.unknown(form, allowed: ["payment_intent", "amount"]) { return refusal }
        guard let intentId = form["payment_intent"] else { return Self.missing("payment_intent") }
        guard let intent = intents[intentId], intent.status == "succeeded" else {
            return Self.noSuch("payment_intent", intentId, param: "payment_intent")
        }
        let amount = form["amount"].flatMap { Int64($0) } ?? intent.amount - (refunded[intentId] ?? 0)
        guard amount > 0, (refunded[intentId] ?? 0) + amount <= intent.amount else {
            return Self.error(
                400, code: "amount_too_large", message: "Refund amount is greater than unrefunded amount on charge.",
                param: "amount")
        }
        refunded[intentId, default: 0] += amount
        let id = Self.newId("re")
        refunds[id] = [
            "id": .string(id), "object": "refund", "amount": .int(amount), "currency": .string(intent.currency),
            "payment_intent": .string(intentId), "status": "succeeded", "failure_reason": .null,
        ]
        return Self.ok(.object(refunds[id] ?? [:]))
    }

    /// `POST /v1/payment_intents/{id}/cancel`: only before it succeeded.
    mutating func cancel(_ id: String, _ form: FakeForm) -> Answer {
        if let refusal = Self.unknown(form, allowed: ["cancellation_reason"]) { return refusal }
        guard var intent = intents[id] else { return Self.noSuch("payment_intent", id, status: 404) }
        if succeedBeforeCancel.remove(id) != nil, intent.status == "requires_action" {
            intent.status = "succeeded"
            intent.nextAction = .null
            intents[id] = intent
        }
        let cancelable = [
            "requires_payment_method", "requires_capture", "requires_confirmation", "requires_action", "processing",
        ]
        guard cancelable.contains(intent.status) else {
            return Self.error(
                400, code: "payment_intent_unexpected_state",
                message:
                    "You cannot cancel this PaymentIntent because it has a status of \(intent.status). Only a PaymentIntent with one of the following statuses may be canceled: \(cancelable.joined(separator: ", ")).",
                extra: ["payment_intent": intent.json]
            )
        }
        intent.status = "canceled"
        intent.nextAction = .null
        intent.cancellationReason = form["cancellation_reason"]
        intents[id] = intent
        return Self.ok(intent.json)
    }
}
