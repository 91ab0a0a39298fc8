import CountersignAPI
import CountersignCore

/// Turns what a client sent into a `PaymentIntent`, or refuses it with a 400 naming the field.
/// The options call and the top-up call both go through here, so they canonicalize identically.
package struct IntentValidator: Sendable {
    package let currency: String
    package let phoneRegion: PhoneRegion

    package init(currency: String, phoneRegion: PhoneRegion = .nigeria) {
        self.currency = currency
        self.phoneRegion = phoneRegion
    }

    /// The airtime intent for these fields.
    package func airtime(amount: Int64, productCode: String, recipientPhone: String, supplierSlug: String?)
        throws(APIError) -> PaymentIntent
    {
        guard amount > 0 else {
            throw APIError(.invalidAmount, "amount must be a positive integer number of minor units.")
        }
        guard (TopUpLimits.minimumAmount...TopUpLimits.maximumAmount).contains(amount) else {
            throw APIError(
                .amountOutOfRange,
                "amount must be between \(TopUpLimits.minimumAmount) and \(TopUpLimits.maximumAmount) minor units "
                    + "(\(Currency.ngn.format(TopUpLimits.minimumAmount)) to \(Currency.ngn.format(TopUpLimits.maximumAmount)))."
            )
        }
        guard let network = AirtimeNetwork(productCode: productCode) else {
            throw APIError(
                .unknownProduct,
                "productCode must be one of \(AirtimeNetwork.allCases.map(\.productCode).joined(separator: ", ")).")
        }
        if let supplierSlug, supplierSlug != network.rawValue {
            guard AirtimeNetwork(rawValue: supplierSlug) != nil else {
                throw APIError(
                    .unknownSupplier,
                    "supplierSlug must be one of \(AirtimeNetwork.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            throw APIError(.supplierMismatch, "supplierSlug \(supplierSlug) does not sell \(productCode).")
        }
        guard let phone = PhoneNumber(recipientPhone, region: phoneRegion) else {
            throw APIError(
                .invalidPhone, "recipientPhone must be a phone number: +country code and number, or a national number.")
        }
        return PaymentIntent(
            amount: amount, currency: currency, productCode: productCode,
            recipientPhone: phone.value, supplierSlug: network.rawValue
        )
    }
}
