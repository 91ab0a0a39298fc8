/// A registered user as the server stores them.
package struct User: Sendable, Equatable {
    package let id: String
    package let phone: String
    package let name: String
    package let pinHash: String
    /// The WebAuthn user handle (random, base64url): never the phone number.
    package let userHandle: String
    package let failedPaymentAuths: Int64
    package let paymentLockedUntil: Int64
    /// When a code proved the number; nil for accounts opened before numbers were proven.
    package var phoneVerifiedAt: Int64? = nil
    /// After a PIN reset by code alone, PIN payments and step-ups are refused until then.
    package var pinCoolingUntil: Int64 = 0
}
