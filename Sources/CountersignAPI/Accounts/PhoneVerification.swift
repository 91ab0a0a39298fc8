/// What a one-time code sent by SMS unlocks. A code works only for the purpose it was asked for.
public enum VerificationPurpose: String, Codable, Sendable, CaseIterable {
    /// Opening an account on the number (`POST /auth/signup`).
    case signup
    /// Signing in from a device the account does not know (`POST /auth/login`).
    case login
    /// Binding a new device key with the PIN (`POST /biometric/register/options`).
    case bindDevice = "bind-device"
    /// Setting a new PIN (`POST /auth/pin/reset`).
    case recover
    /// Moving the account to another number, and the step-up for it (`POST /account/phone`).
    case changePhone = "change-phone"
}

/// `POST /auth/phone/verifications` body.
public struct PhoneVerificationRequest: Codable, Sendable, Equatable {
    /// The number to send the code to: the account's number, or for `change-phone` the new one.
    public var phone: String
    /// What the code is for.
    public var purpose: VerificationPurpose
    /// A request for a code.
    public init(phone: String, purpose: VerificationPurpose) {
        self.phone = phone
        self.purpose = purpose
    }
}

/// `POST /auth/phone/verifications` answer (202). The same whether or not an account exists: a
/// code goes out only where it can be used, but nobody can tell from here.
public struct PhoneVerificationResponse: Codable, Sendable, Equatable {
    /// Sent back with the code to the operation it unlocks.
    public var verificationId: String
    /// Seconds until the code expires (600).
    public var expiresIn: Int
    /// Seconds before another code may be asked for this number.
    public var resendAfter: Int
    /// A response.
    public init(verificationId: String, expiresIn: Int, resendAfter: Int) {
        self.verificationId = verificationId
        self.expiresIn = expiresIn
        self.resendAfter = resendAfter
    }
}

/// `GET /sim/sms?phone=` answer, in test mode only: what the SMS simulator "sent" to a number.
public struct SimulatedSMSList: Codable, Sendable, Equatable {
    /// One message.
    public struct Message: Codable, Sendable, Equatable {
        /// The number, E.164.
        public var to: String
        /// The text.
        public var body: String
        /// When it was sent (ISO 8601).
        public var sentAt: String
        /// A message.
        public init(to: String, body: String, sentAt: String) {
            self.to = to
            self.body = body
            self.sentAt = sentAt
        }
    }

    /// Newest first.
    public var messages: [Message]
    /// A list.
    public init(messages: [Message]) { self.messages = messages }
}
