/// The W3C Payment Request dictionaries Secure Payment Confirmation shows and signs, written once
/// for the verifier (`WebAuthn.SecurePaymentConfirmation`, what was issued) and the API
/// (`CountersignAPI.SecurePaymentConfirmationData`, what a page passes to `PaymentRequest`).

/// A `PaymentCurrencyAmount`: an ISO 4217 code and a decimal string, e.g. `NGN` and `5.00`.
public struct PaymentCurrencyAmount: Codable, Sendable, Equatable {
    /// The ISO 4217 code, upper case.
    public var currency: String
    /// The amount as shown, a decimal string with the currency's minor-unit digits (`5.00`), compared as text.
    public var value: String
    /// An amount.
    public init(currency: String, value: String) {
        self.currency = currency
        self.value = value
    }
}

/// A `PaymentCredentialInstrument`: how the payment instrument is shown.
public struct PaymentCredentialInstrument: Codable, Sendable, Equatable {
    /// The instrument's name, e.g. `Countersign wallet`.
    public var displayName: String
    /// The icon's URL as the browser serializes it (a `data:` or `https:` URL).
    public var icon: String
    /// An instrument.
    public init(displayName: String, icon: String) {
        self.displayName = displayName
        self.icon = icon
    }
}
