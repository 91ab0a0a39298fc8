/// Sends text messages to phone numbers: one-time codes and security notices. The built-in
/// simulator keeps them in the store for `GET /sim/sms`; `TwilioSMSSender` sends them for real.
package protocol SMSSender: Sendable {
    /// Sends `body` to `phone` (E.164, `+` and digits). Throws `SMSError` when the provider refuses
    /// the message or cannot be reached; nothing is retried after this returns or throws.
    func send(to phone: String, body: String) async throws(SMSError) -> SentSMS

    /// Whether messages reach real phones: false for the simulator.
    var isLive: Bool { get }
}

/// A message the provider accepted.
package struct SentSMS: Sendable, Equatable {
    /// The provider's id for it (Twilio's `SM…` sid; the simulator's own id).
    package let providerId: String
    package init(providerId: String) { self.providerId = providerId }
}

/// Why a message was not sent. The cause is logged; the client is told only that the code could not
/// be sent (`sms_unavailable`, or `invalid_phone` for a number the provider says cannot receive SMS).
package enum SMSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider says this number cannot receive the message: not a valid or mobile number, a
    /// region not enabled, or a recipient who unsubscribed. `providerCode` is the provider's code.
    case undeliverable(providerCode: String, message: String)
    /// The provider refused our credentials or configuration (an operator must act).
    case misconfigured(providerCode: String, message: String)
    /// The provider could not be reached, timed out, throttled us or failed on its side, after retries.
    case unavailable(message: String)

    package var description: String {
        switch self {
        case .undeliverable(let code, let message): "undeliverable (\(code)): \(message)"
        case .misconfigured(let code, let message): "misconfigured (\(code)): \(message)"
        case .unavailable(let message): "unavailable: \(message)"
        }
    }
}
