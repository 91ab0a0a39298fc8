import CountersignAPI
import CountersignCore
import Foundation
import WebAuthn

/// Secure Payment Confirmation (SPC): what the browser is to show for a payment challenge — payee,
/// total, instrument — computed from what the challenge covers (a top-up intent, a transfer quote)
/// and this server's configuration. Nothing of it is stored: verification computes it again from
/// the challenge's intent or the transfer's quote, so what is checked is what was issued.
package struct PaymentConfirmation: Sendable {
    let rpId: String
    let payeeName: String
    let payeeOrigin: String?
    let instrument: SecurePaymentConfirmation.Instrument

    /// A 32×32 PNG (106 bytes) inline: no request for the browser to make and none to fail, and a
    /// `data:` URL is serialized by the browser exactly as written, so the signed `icon` matches.
    static let walletIcon =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAMUlEQVR42mPgL8ujKWIYtWDUglELRi0g0YL/VAKjFpBvwWgyHbVg1IJRC0YtGLEWAAAuxI/95hL4MAAAAABJRU5ErkJggg=="

    init(configuration: ServerConfiguration) {
        rpId = configuration.rpId
        payeeName = configuration.rpName
        payeeOrigin = configuration.payeeOrigin ?? Self.httpsOrigin(of: configuration.publicBaseURL)
        instrument = .init(displayName: "\(configuration.rpName) wallet", icon: Self.walletIcon)
    }

    /// What paying `amount` minor units of `currency` shows; `payee` names the person paid, if any.
    func expected(amount: Int64, currency: String, payee: String? = nil) -> SecurePaymentConfirmation {
        SecurePaymentConfirmation(
            payeeName: payee.map { "\($0) via \(payeeName)" } ?? payeeName, payeeOrigin: payeeOrigin,
            total: .init(currency: currency, value: Self.decimal(amount, currency: currency)), instrument: instrument
        )
    }

    /// A wallet payment challenge's stored intent, read back. Nil for any other challenge.
    func intent(of challenge: StoredChallenge) -> PaymentIntent? {
        // Stored as its canonical text: whatever the scanner does not read is not that.
        guard let text = challenge.intent, let intent = PaymentIntent.scanned(Array(text.utf8)),
            intent.canonicalBytes.elementsEqual(text.utf8)
        else { return nil }
        return intent
    }

    /// What a transfer's challenge showed: its quote's total, to its payee.
    func expected(transfer: Transfer) -> SecurePaymentConfirmation? {
        transfer.quote.map { expected(amount: $0.total, currency: $0.currency, payee: transfer.payeeName) }
    }

    /// The members a page passes to `PaymentRequest` for `challenge`.
    func data(_ shown: SecurePaymentConfirmation, challenge: String, credentialIds: [String], timeout: Int)
        -> SecurePaymentConfirmationData
    {
        SecurePaymentConfirmationData(
            rpId: rpId, credentialIds: credentialIds, challenge: challenge, payeeName: shown.payeeName ?? payeeName,
            payeeOrigin: shown.payeeOrigin,
            total: shown.total, instrument: shown.instrument, timeout: timeout
        )
    }

    /// `amount` minor units as a decimal string with the currency's minor-unit digits: 50000 NGN → `500.00`.
    static func decimal(_ amount: Int64, currency: String) -> String {
        let digits = Currency.known[currency]?.minorUnitDigits ?? 2
        guard digits > 0 else { return String(amount) }
        let scale = (0..<digits).reduce(Int64(1)) { value, _ in value * 10 }
        let sign = amount < 0 ? "-" : ""
        let magnitude = amount.magnitude
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(magnitude / UInt64(scale)) + "." + String(repeating: "0", count: digits - fraction.count)
            + fraction
    }

    /// A configured payee origin, normalised; nil unless it is an https origin alone (no path, query or fragment).
    package static func payeeOrigin(_ entry: String) -> String? {
        ReturnURLPolicy.isBare(entry) ? httpsOrigin(of: entry) : nil
    }

    /// `https://host[:port]` of an https URL (the browser's serialization: lower-case host, no
    /// default port); nil for anything else, since SPC refuses a payee origin that is not https.
    static func httpsOrigin(of url: String) -> String? {
        guard let origin = ReturnURLPolicy.origin(of: url), origin.hasPrefix("https://") else { return nil }
        return origin
    }
}
