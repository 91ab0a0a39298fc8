import Foundation

/// How to reach Twilio's Messages API: the account, an API key (SID and secret, from the
/// environment, never a literal), who the messages come from, and the API's address. Printing it
/// never shows the secret.
package struct TwilioConfiguration: Sendable, CustomStringConvertible {
    /// Who a message is sent from: one number, or a Messaging Service that picks one of its senders.
    package enum Sender: Sendable, Equatable {
        /// `From`: a number in E.164 that belongs to the account.
        case from(String)
        /// `MessagingServiceSid`: `MG` and 32 hex digits.
        case messagingService(String)
    }

    package static let defaultBaseURL = "https://api.twilio.com"

    /// `AC` and 32 hex digits: the account whose Messages resource is written to (in the path).
    package let accountSid: String
    /// `SK` and 32 hex digits: the API key, the Basic-auth user name.
    package let apiKeySid: String
    /// The API key's secret, the Basic-auth password. Never logged or printed.
    let apiKeySecret: String
    package let sender: Sender
    /// Where the API is: Twilio, or a local fake in tests. No trailing slash.
    package let baseURL: String
    /// How long one attempt may take, connecting included, before it counts as a network failure.
    package var timeout: Duration = .seconds(10)
    /// How often, and how far apart, a failed attempt is made again.
    package var retry = TwilioRetryPolicy()

    /// Checks every value's shape; throws a message naming what is wrong (and never the secret).
    package init(
        accountSid: String, apiKeySid: String, apiKeySecret: String, sender: Sender, baseURL: String = defaultBaseURL
    ) throws(TwilioConfigurationError) {
        guard Self.isSid(accountSid, prefix: "AC") else {
            throw TwilioConfigurationError(
                "TWILIO_ACCOUNT_SID must be the Account SID: AC followed by 32 hexadecimal digits")
        }
        if Self.isSid(apiKeySid, prefix: "AC") {
            throw TwilioConfigurationError(
                "TWILIO_API_KEY_SID holds an Account SID; create an API key in Twilio's console and give its SID (SK…)")
        }
        guard Self.isSid(apiKeySid, prefix: "SK") else {
            throw TwilioConfigurationError(
                "TWILIO_API_KEY_SID must be an API key SID: SK followed by 32 hexadecimal digits")
        }
        // Printable ASCII without spaces: a secret pasted with a line break fails here, not at Twilio.
        guard !apiKeySecret.isEmpty, apiKeySecret.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw TwilioConfigurationError(
                "TWILIO_API_KEY_SECRET must be the API key's secret: printable characters, no spaces")
        }
        switch sender {
        case .from(let number):
            guard Self.isE164(number) else {
                throw TwilioConfigurationError(
                    "TWILIO_FROM must be a phone number in E.164: + and 8 to 15 digits, e.g. +14155550100")
            }
        case .messagingService(let sid):
            guard Self.isSid(sid, prefix: "MG") else {
                throw TwilioConfigurationError(
                    "TWILIO_MESSAGING_SERVICE_SID must be MG followed by 32 hexadecimal digits")
            }
        }
        let address = URLComponents(string: baseURL)
        let loopback = address?.scheme == "http" && ["127.0.0.1", "localhost"].contains(address?.host ?? "")
        guard address?.scheme == "https" && address?.host?.isEmpty == false || loopback else {
            throw TwilioConfigurationError(
                "TWILIO_API_BASE_URL must be https (plain http only on loopback, for a local fake)")
        }
        self.accountSid = accountSid
        self.apiKeySid = apiKeySid
        self.apiKeySecret = apiKeySecret
        self.sender = sender
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// `Twilio (account AC…89ab, from +14155550100, https://api.twilio.com)`: never the secret.
    package var description: String {
        let from =
            switch sender {
            case .from(let number): "from \(number)"
            case .messagingService(let sid): "messaging service \(sid)"
            }
        return "Twilio (account AC…\(accountSid.suffix(4)), \(from), \(baseURL))"
    }

    /// The SID shapes of Twilio's OpenAPI description (`^AC[0-9a-fA-F]{32}$` and the like).
    static func isSid(_ text: String, prefix: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == 34 && text.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// `+`, a country code that does not start with 0, and at most 15 digits in all (E.164); at
    /// least 8, as `PhoneNumber` requires.
    static func isE164(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.first == "+" && (8...15).contains(digits.count) && digits.first != "0"
            && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// Why the Twilio configuration was refused; start-up stops with this message.
package struct TwilioConfigurationError: Error, Equatable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
