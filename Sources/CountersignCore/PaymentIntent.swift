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
        let fields: [(String, String)] = [
            ("amount", String(amount)),
            ("currency", CanonicalJSON.quote(currency)),
            ("kind", CanonicalJSON.quote(kind)),
            ("productCode", CanonicalJSON.quote(productCode)),
            ("recipientPhone", CanonicalJSON.quote(recipientPhone)),
            ("supplierSlug", CanonicalJSON.quote(supplierSlug)),
        ]
        return Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
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

/// The minimal JSON string escaping used by canonical encodings.
public enum CanonicalJSON {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, nothing else.
    public static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
