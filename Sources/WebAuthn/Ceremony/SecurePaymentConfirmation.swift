import CountersignCodec

/// What a relying party had the browser show through W3C Secure Payment Confirmation (SPC): the
/// payee, the total and the instrument. A `payment.get` assertion carries what the browser showed in
/// the `payment` member of its clientDataJSON, signed by the authenticator; the verifier accepts it
/// only when every shown member is the one issued (PSD2 dynamic linking, checked by the relying party).
public struct SecurePaymentConfirmation: Sendable, Equatable {
    /// A `PaymentCurrencyAmount`: an ISO 4217 code and a decimal string, e.g. `NGN` and `5.00`.
    public typealias Amount = PaymentCurrencyAmount
    /// A `PaymentCredentialInstrument`: how the payment instrument was shown.
    public typealias Instrument = PaymentCredentialInstrument

    /// The payee's name, if one was shown.
    public var payeeName: String?
    /// The payee's origin (`https://host[:port]`), if one was shown.
    public var payeeOrigin: String?
    /// What the user pays.
    public var total: Amount
    /// The instrument the user pays with.
    public var instrument: Instrument

    /// What was issued for one challenge.
    public init(payeeName: String?, payeeOrigin: String?, total: Amount, instrument: Instrument) {
        self.payeeName = payeeName
        self.payeeOrigin = payeeOrigin
        self.total = total
        self.instrument = instrument
    }
}

/// The `payment` member of clientDataJSON (SPC's `CollectedClientAdditionalPaymentData`) as read;
/// a member the browser did not send is nil. Unknown members (`paymentEntitiesLogos`,
/// `browserBoundPublicKey`, an instrument's `details`) are skipped.
package struct CollectedPaymentData: Sendable, Equatable, Decodable {
    package var rpId: String?
    package var topOrigin: String?
    package var payeeName: String?
    package var payeeOrigin: String?
    package var total: SecurePaymentConfirmation.Amount?
    package var instrument: SecurePaymentConfirmation.Instrument?

    package init(
        rpId: String? = nil, topOrigin: String? = nil, payeeName: String? = nil, payeeOrigin: String? = nil,
        total: SecurePaymentConfirmation.Amount? = nil, instrument: SecurePaymentConfirmation.Instrument? = nil
    ) {
        self.rpId = rpId
        self.topOrigin = topOrigin
        self.payeeName = payeeName
        self.payeeOrigin = payeeOrigin
        self.total = total
        self.instrument = instrument
    }

    /// SPC §"Verifying an authentication assertion": the rpId is ours, the top-level origin is one
    /// of ours, and the payee, total and instrument are exactly what was issued for the challenge.
    func check(against expected: SecurePaymentConfirmation, relyingParty: RelyingParty) throws(WebAuthnError) {
        guard rpId == relyingParty.id else { throw Self.mismatch("rpId") }
        guard let topOrigin, relyingParty.origins.contains(topOrigin) else { throw Self.mismatch("topOrigin") }
        guard payeeName == expected.payeeName else { throw Self.mismatch("payeeName") }
        guard payeeOrigin == expected.payeeOrigin else { throw Self.mismatch("payeeOrigin") }
        guard total == expected.total else { throw Self.mismatch("total") }
        guard instrument == expected.instrument else { throw Self.mismatch("instrument") }
    }

    static func mismatch(_ member: String) -> WebAuthnError {
        WebAuthnError(
            .paymentDataMismatch, "clientDataJSON payment.\(member) is not what was issued for this challenge")
    }
}
