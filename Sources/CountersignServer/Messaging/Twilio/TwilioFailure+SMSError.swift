/// What one attempt at Twilio came to, when it was not a message sent.
enum TwilioAttemptFailure: Error, Sendable, Equatable {
    /// Worth another attempt: no answer, a 429, a 5xx. The text says what happened.
    case retryable(String, retryAfter: Duration?)
    /// Final: Twilio refused this message or our credentials.
    case refused(SMSError)
}

extension TwilioObject.Failure {
    /// Twilio's error codes that say the recipient cannot get this message; each was checked
    /// against its page in Twilio's error dictionary (twilio.com/docs/api/errors/<code>).
    static let undeliverable: [Int: String] = [
        21211: "invalid 'To' phone number",
        21265: "'To' number cannot be a short code",
        21266: "'To' and 'From' numbers cannot be the same",
        21268: "premium-rate or information-service 'To' number",
        21408: "sending to this region is not enabled (Messaging Geo Permissions)",
        21610: "the recipient unsubscribed (replied STOP)",
        21612: "this 'To' cannot be reached from this sender",
        21614: "'To' number is not a valid mobile number",
        21635: "'To' number is a landline",
    ]

    /// Codes that say our credentials or sender are wrong: an operator must act, and every message
    /// fails alike until then. Checked against the same dictionary.
    static let misconfigured: [Int: String] = [
        20003: "authentication failed: the API key, its secret or the account",
        20404: "not found: the Account SID or the API's address",
        21212: "invalid 'From' number",
        21603: "a 'From' or 'MessagingServiceSid' is required",
        21606: "the 'From' number cannot send SMS to this destination, or is not this account's",
        21608: "a trial account can only send to verified numbers",
        21659: "'From' is not a Twilio number",
    ]

    /// This answer (HTTP `status`, this body if Twilio's) as the dispatcher sees it: 429, Twilio's
    /// 20429 and 5xx are retried; a known code is `undeliverable` or `misconfigured`; any other
    /// refusal is `misconfigured` too, since only an operator can tell what it means.
    static func outcome(status: Int, failure: Self?, retryAfter: Duration?, redact: (String) -> String)
        -> TwilioAttemptFailure
    {
        let code = failure?.code
        let text = redact(String((failure?.message ?? "no error body").prefix(300)))
        if status == 429 || code == 20429 || status >= 500 {
            return .retryable("HTTP \(status)\(code.map { " code \($0)" } ?? ""): \(text)", retryAfter: retryAfter)
        }
        let providerCode = code.map(String.init) ?? "http-\(status)"
        if let code, let meaning = undeliverable[code] {
            return .refused(.undeliverable(providerCode: providerCode, message: "\(meaning): \(text)"))
        }
        if let code, let meaning = misconfigured[code] {
            return .refused(.misconfigured(providerCode: providerCode, message: "\(meaning): \(text)"))
        }
        return .refused(.misconfigured(providerCode: providerCode, message: "HTTP \(status): \(text)"))
    }
}
