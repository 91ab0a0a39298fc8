import Foundation

extension FakeStripe {
    /// Everything the fake holds; every request is answered in one critical section.
    struct State: Sendable {
        var customers: [String: [String: String]] = [:]
        var paymentMethods: [String: FakePaymentMethod] = [:]
        var intents: [String: FakePaymentIntent] = [:]
        /// Refunds by id: `id`, `payment_intent`, `amount`, `currency`, `status`, `failure_reason`.
        var refunds: [String: [String: FakeJSON]] = [:]
        var refunded: [String: Int64] = [:]
        /// Idempotency key → what the first request was and the answer it got.
        var idempotent: [String: (request: [String], answer: Answer)] = [:]
        var calls: [Call] = []
        var unexpected: [String] = []
        var replays = 0
        var failures: [Int] = []
        var stalls: [Duration] = []
        /// Intents whose payer finishes 3-D Secure just before our cancel reaches Stripe.
        var succeedBeforeCancel: Set<String> = []

        /// Authentication, version, body, idempotency, then the endpoint.
        mutating func answer(_ call: Call) -> Answer {
            calls.append(call)
            if !failures.isEmpty {
                return Self.error(
                    failures.removeFirst(), type: "api_error",
                    message: "An unknown error occurred on Stripe's side (fake).")
            }
            guard let authorization = call.authorization, authorization.hasPrefix("Bearer ") else {
                return Self.error(
                    401,
                    message:
                        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth."
                )
            }
            let key = authorization.dropFirst("Bearer ".count)
            guard key == FakeStripe.secretKey else {
                return Self.error(401, message: "Invalid API Key provided: \(key.prefix(8))********\(key.suffix(4))")
            }
            if let version = call.stripeVersion, version != FakeStripe.apiVersion {
                return Self.error(400, message: "Invalid Stripe API version: \(version)")
            }
            if call.method == "POST", !call.body.isEmpty,
                call.contentType?.hasPrefix("application/x-www-form-urlencoded") != true
            {
                return Self.error(400, message: "Invalid request: bodies must be application/x-www-form-urlencoded.")
            }
            guard let form = FakeForm(encoded: call.method == "POST" ? call.body : call.query) else {
                return Self.error(400, message: "Invalid request: the body could not be decoded.")
            }
            guard call.method == "POST", let key = call.idempotencyKey else { return route(call, form) }
            let request = [call.method + " " + call.path] + form.fingerprint
            if let saved = idempotent[key] {
                guard saved.request == request else {
                    return Self.error(
                        400, type: "idempotency_error",
                        message:
                            "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '\(key)' if you meant to execute a different request."
                    )
                }
                replays += 1
                var replay = saved.answer
                replay.replayed = true
                return replay
            }
            let answer = route(call, form)
            // Stripe keeps no result for a request that failed validation or authentication.
            if answer.status != 400, answer.status != 401 { idempotent[key] = (request, answer) }
            return answer
        }

        mutating func route(_ call: Call, _ form: FakeForm) -> Answer {
            // `/v1/<resource>[/<id>[/<action>]]`
            let parts = call.path.split(separator: "/").map(String.init)
            let resource = parts.count > 1 && parts[0] == "v1" ? parts[1] : ""
            let id = parts.count > 2 ? parts[2] : ""
            let action = parts.count > 3 ? parts[3] : nil
            switch (call.method, resource, parts.count, action) {
            case ("POST", "customers", 2, nil): return createCustomer(form)
            case ("GET", "customers", 4, "payment_methods"): return listPaymentMethods(customer: id, form)
            case ("GET", "payment_methods", 3, nil):
                return paymentMethods[id].map { Self.ok($0.json) } ?? Self.noSuch("PaymentMethod", id, status: 404)
            case ("POST", "payment_methods", 4, "attach"): return attach(id, form)
            case ("POST", "payment_intents", 2, nil): return createIntent(form)
            case ("GET", "payment_intents", 3, nil):
                return intents[id].map { Self.ok($0.json) } ?? Self.noSuch("payment_intent", id, status: 404)
            case ("POST", "payment_intents", 4, "cancel"): return cancel(id, form)
            case ("POST", "refunds", 2, nil): return createRefund(form)
            case ("GET", "refunds", 3, nil):
                return refunds[id].map { Self.ok(.object($0)) } ?? Self.noSuch("refund", id, status: 404)
            default:
                unexpected.append("\(call.method) \(call.path)")
                return Self.error(404, message: "Unrecognized request URL (\(call.method): \(call.path)).")
            }
        }

        static func ok(_ json: FakeJSON) -> Answer { Answer(status: 200, body: json.bytes) }

        static func error(
            _ status: Int, type: String = "invalid_request_error", code: String? = nil, message: String,
            param: String? = nil,
            extra: [String: FakeJSON] = [:]
        ) -> Answer {
            let error: FakeJSON = [
                "type": .string(type), "code": .optional(code), "message": .string(message), "param": .optional(param),
            ]
            return Answer(status: status, body: FakeJSON.object(["error": error.merging(extra)]).bytes)
        }

        static func noSuch(_ what: String, _ id: String, status: Int = 400, param: String? = nil) -> Answer {
            error(status, code: "resource_missing", message: "No such \(what): '\(id)'", param: param)
        }

        static func missing(_ param: String) -> Answer {
            error(400, code: "parameter_missing", message: "Missing required param: \(param).", param: param)
        }

        static func unknown(_ form: FakeForm, allowed: Set<String>) -> Answer? {
            form.unknownKey(allowed: allowed).map {
                error(400, code: "parameter_unknown", message: "Received unknown parameter: \($0)", param: $0)
            }
        }

        static func newId(_ prefix: String) -> String {
            prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24)
        }

        static var now: Int64 { Int64(Date().timeIntervalSince1970) }
    }
}
