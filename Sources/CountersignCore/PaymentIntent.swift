import Crypto

/// What a payment authorization is for: the fields a device signature covers.
///
/// The challenge a device signs is `SHA-256(nonce ‖ canonicalBytes)`, so a verification token
/// obtained for one intent cannot pay for another (dynamic linking of amount and payee).
public struct PaymentIntent: Sendable, Hashable, Codable {
    /// What kind of payment this is; `airtime_topup` for the seed's flow.
    public var kind: String
    /// The amount in minor units of `currency`.
    public var amount: Int64
    /// The wallet currency.
    public var currency: String
    /// The product bought, e.g. `AIRTIME_MTN`.
    public var productCode: String
    /// The recipient, in canonical phone form.
    public var recipientPhone: String
    /// The supplier that fulfils it, e.g. `mtn`.
    public var supplierSlug: String

    /// An intent with every field given.
    public init(
        kind: String = "airtime_topup", amount: Int64, currency: String, productCode: String, recipientPhone: String,
        supplierSlug: String
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.productCode = productCode
        self.recipientPhone = recipientPhone
        self.supplierSlug = supplierSlug
    }

    /// The canonical encoding: JSON with keys in lexicographic order, no white space, strings escaped
    /// minimally. A client recomputes it byte for byte to check the challenge before it signs.
    public var canonicalBytes: [UInt8] {
        jsonBytes(escaping: .minimal)
    }

    /// SHA-256 of the canonical encoding: what a verification token carries to bind it to this intent.
    public var digest: [UInt8] {
        Array(SHA256.hash(data: canonicalBytes))
    }

    /// The WebAuthn challenge for this intent under `nonce`: `SHA-256(nonce ‖ canonicalBytes)`.
    public func challenge(nonce: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: nonce)
        hasher.update(data: canonicalBytes)
        return Array(hasher.finalize())
    }
}

extension PaymentIntent: JSONWritable {
    /// The members in the order of their keys: the canonical encoding, and `JSONEncoder`'s with
    /// sorted keys.
    package func write(to object: inout JSONObjectWriter) {
        object.integer("amount", amount)
        object.string("currency", currency)
        object.string("kind", kind)
        object.string("productCode", productCode)
        object.string("recipientPhone", recipientPhone)
        object.string("supplierSlug", supplierSlug)
    }
}

/// The minimal JSON string escaping used by canonical encodings.
public enum CanonicalJSON {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, nothing else.
    public static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONObjectWriter.appendString(text, to: &bytes, escaping: .minimal)
        return String(decoding: bytes, as: UTF8.self)
    }
}
