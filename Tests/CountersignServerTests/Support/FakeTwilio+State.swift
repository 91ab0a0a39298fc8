import Foundation

extension FakeTwilio {
    /// One request as the fake saw it.
    struct Call: Sendable {
        let method: String
        let path: String
        let contentType: String?
        let authorization: String?
        let body: String

        var form: FakeForm { FakeForm(encoded: body) ?? FakeForm(encoded: "")! }
    }

    /// One answer: a status, a body, and `Retry-After` if any.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        var retryAfter: String?
    }

    /// Every request so far, oldest first.
    var calls: [Call] { state.withLock { $0.calls } }
    /// The messages Twilio took (201), oldest first.
    var sent: [FakeJSON] { state.withLock { $0.sent } }

    /// The next requests answer these, in order, before anything else is looked at (authentication
    /// included, as a 5xx from Twilio's edge would): `error(…)` for Twilio's error JSON, or any
    /// status and raw body.
    func answerNext(_ answers: Answer...) { state.withLock { $0.scripted += answers } }

    /// Twilio's error JSON for `code`, as the 2010 API writes it.
    static func error(_ status: Int, code: Int?, message: String, retryAfter: String? = nil) -> Answer {
        let body: FakeJSON = [
            "code": code.map { FakeJSON.int(Int64($0)) } ?? .null, "message": .string(message),
            "more_info": code.map { FakeJSON.string("https://www.twilio.com/docs/errors/\($0)") } ?? .null,
            "status": .int(Int64(status)),
        ]
        return Answer(status: status, body: body.bytes, retryAfter: retryAfter)
    }

    /// From now on no request is answered until the fake stops (each is still recorded and, if it
    /// keeps the contract, taken, as Twilio may take a message whose client gave up).
    func neverAnswer() { state.withLock { $0.neverAnswer = true } }

    /// The contract violations so far, cleared: for a test that sends bad requests on purpose.
    func takeViolations() -> [String] {
        state.withLock { state in
            defer { state.violations = [] }
            return state.violations
        }
    }

    /// The unexpected requests so far, cleared.
    func takeUnexpected() -> [String] {
        state.withLock { state in
            defer { state.unexpected = [] }
            return state.unexpected
        }
    }

    /// Everything the fake holds; every request is answered in one critical section.
    struct State: Sendable {
        var calls: [Call] = []
        var sent: [FakeJSON] = []
        var violations: [String] = []
        var unexpected: [String] = []
        var scripted: [Answer] = []
        var neverAnswer = false

        /// The route, the contract, a scripted answer, authentication, then Twilio's own checks.
        mutating func answer(_ call: Call, contract: TwilioMessageContract) -> Answer {
            calls.append(call)
            guard call.method == contract.method, let parameters = contract.pathParameters(call.path) else {
                unexpected.append("\(call.method) \(call.path)")
                return FakeTwilio.error(
                    404, code: 20404, message: "The requested resource \(call.path) was not found")
            }
            guard let form = FakeForm(encoded: call.body) else {
                violations.append("the body is not form-encoded: \(call.body.debugDescription)")
                return FakeTwilio.error(400, code: nil, message: "fake Twilio: the body cannot be decoded")
            }
            let broken = contract.violations(
                method: call.method, path: call.path, contentType: call.contentType,
                authorization: call.authorization, form: form)
            guard broken.isEmpty else {
                violations += broken
                // The description says nothing of Twilio's answer to such a request: this one is the fake's.
                return FakeTwilio.error(
                    400, code: nil,
                    message: "fake Twilio: not \(contract.operationId): \(broken.joined(separator: "; "))")
            }
            if !scripted.isEmpty { return scripted.removeFirst() }
            guard let credentials = TwilioMessageContract.basicCredentials(call.authorization),
                credentials.user == FakeTwilio.apiKeySid, credentials.password == FakeTwilio.apiKeySecret,
                parameters["AccountSid"] == FakeTwilio.accountSid
            else {
                return FakeTwilio.error(401, code: 20003, message: "Authenticate")
            }
            return create(form)
        }

        /// Twilio's checks on a message, in its documented codes, then the Message it creates.
        mutating func create(_ form: FakeForm) -> Answer {
            guard let to = form["To"], !to.isEmpty else {
                return FakeTwilio.error(400, code: 21604, message: "A 'To' phone number is required.")
            }
            let (from, service) = (form["From"], form["MessagingServiceSid"])
            guard from != nil || service != nil else {
                return FakeTwilio.error(
                    400, code: 21603,
                    message: "A 'From' or 'MessagingServiceSid' parameter is required to send a message.")
            }
            guard form["Body"] != nil || form["MediaUrl"] != nil || form["ContentSid"] != nil else {
                return FakeTwilio.error(400, code: 21602, message: "Message body is required.")
            }
            // E.164, written here rather than borrowed from the sender, so a mistake in one shows in the other.
            guard to.wholeMatch(of: /\+[1-9][0-9]{1,14}/) != nil else {
                return FakeTwilio.error(400, code: 21211, message: "The 'To' number \(to) is not a valid phone number.")
            }
            if let from, from != FakeTwilio.from {
                return FakeTwilio.error(
                    400, code: 21659,
                    message: "'From' \(from) is not a Twilio phone number or Short Code country mismatch")
            }
            let sid = "SM" + FakeTwilio.hex(32)
            let uri = "/2010-04-01/Accounts/\(FakeTwilio.accountSid)/Messages/\(sid)"
            let now = Self.rfc2822.string(from: Date())
            let message: FakeJSON = [
                "account_sid": .string(FakeTwilio.accountSid), "api_version": "2010-04-01",
                "body": .string(form["Body"] ?? ""), "date_created": .string(now), "date_sent": nil,
                "date_updated": .string(now), "direction": "outbound-api", "error_code": nil, "error_message": nil,
                "from": .optional(from), "messaging_service_sid": .optional(service), "num_media": "0",
                "num_segments": "1", "price": nil, "price_unit": nil, "sid": .string(sid), "status": "queued",
                "subresource_uris": ["media": .string(uri + "/Media.json")], "to": .string(to),
                "uri": .string(uri + ".json"),
            ]
            sent.append(message)
            return Answer(status: 201, body: message.bytes)
        }

        /// Twilio's dates: `Thu, 24 Aug 2023 05:01:45 +0000`.
        static var rfc2822: DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
            return formatter
        }
    }
}
