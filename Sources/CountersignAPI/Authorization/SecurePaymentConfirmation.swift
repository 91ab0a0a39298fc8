import CountersignCodec

/// What a page passes to W3C Secure Payment Confirmation (`PaymentRequest` method
/// `secure-payment-confirmation`) to authorize a payment challenge: the browser itself shows the
/// payee, the total and the instrument, and the authenticator signs what was shown. The server
/// computes it from the intent or quote the challenge covers and accepts a `payment.get`
/// assertion only if the shown members are exactly these.
public struct SecurePaymentConfirmationData: Codable, Sendable, Equatable {
    /// A `PaymentCurrencyAmount`, the type the verifier checks.
    public typealias Amount = PaymentCurrencyAmount
    /// A `PaymentCredentialInstrument`, the type the verifier checks.
    public typealias Instrument = PaymentCredentialInstrument

    /// The relying party id.
    public var rpId: String
    /// The credentials that may answer, base64url.
    public var credentialIds: [String]
    /// The challenge, base64url (the same as the WebAuthn options').
    public var challenge: String
    /// The payee's name as the browser shows it.
    public var payeeName: String
    /// The payee's origin; set only when it is https (SPC refuses any other).
    public var payeeOrigin: String?
    /// What the user pays: `PaymentDetailsInit.total.amount`.
    public var total: Amount
    /// The instrument shown.
    public var instrument: Instrument
    /// Milliseconds the challenge lives.
    public var timeout: Int

    /// A value with every field given.
    public init(
        rpId: String, credentialIds: [String], challenge: String, payeeName: String, payeeOrigin: String?,
        total: Amount,
        instrument: Instrument, timeout: Int
    ) {
        self.rpId = rpId
        self.credentialIds = credentialIds
        self.challenge = challenge
        self.payeeName = payeeName
        self.payeeOrigin = payeeOrigin
        self.total = total
        self.instrument = instrument
        self.timeout = timeout
    }
}
