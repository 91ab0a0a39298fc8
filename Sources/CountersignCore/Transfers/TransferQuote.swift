import Crypto

/// The fees of one transfer as the server quoted them: what the payer sees, agrees to and signs.
///
/// The challenge the payer's device signs is `SHA-256(nonce ‖ canonicalBytes)`, so a signature
/// authorizes exactly these fees, this amount and this payee (dynamic linking).
public struct TransferQuote: Sendable, Hashable, Codable {
    /// One named fee, in minor units.
    public struct Fee: Sendable, Hashable, Codable {
        /// What the fee is for, e.g. `Transfer fee`.
        public var name: String
        /// The fee in minor units.
        public var amount: Int64
        /// A fee line.
        public init(name: String, amount: Int64) {
            self.name = name
            self.amount = amount
        }
    }

    /// The quote's id, unique per quote.
    public var quoteId: String
    /// The transfer it prices.
    public var transferId: String
    /// The payee, in canonical phone form.
    public var payeePhone: String
    /// What the payee receives, in minor units.
    public var amount: Int64
    /// The fee lines, in the order shown.
    public var fees: [Fee]
    /// The sum of the fee lines.
    public var totalFees: Int64
    /// What leaves the payer's wallet: `amount + totalFees`.
    public var total: Int64
    /// The currency of every amount.
    public var currency: String
    /// When the quote lapses, ISO 8601 UTC with milliseconds.
    public var expiresAt: String

    /// A quote with every field given.
    public init(
        quoteId: String, transferId: String, payeePhone: String, amount: Int64, fees: [Fee], totalFees: Int64,
        total: Int64, currency: String, expiresAt: String
    ) {
        self.quoteId = quoteId
        self.transferId = transferId
        self.payeePhone = payeePhone
        self.amount = amount
        self.fees = fees
        self.totalFees = totalFees
        self.total = total
        self.currency = currency
        self.expiresAt = expiresAt
    }

    /// Whether the figures add up: fees sum to `totalFees` and `total = amount + totalFees`, with
    /// no negative amount. A client checks this before showing a quote.
    public var isConsistent: Bool {
        guard amount > 0, fees.allSatisfy({ $0.amount >= 0 }) else { return false }
        var sum: Int64 = 0
        for fee in fees {
            let (next, overflow) = sum.addingReportingOverflow(fee.amount)
            guard !overflow else { return false }
            sum = next
        }
        let (expectedTotal, overflow) = amount.addingReportingOverflow(sum)
        return !overflow && sum == totalFees && expectedTotal == total
    }

    /// The canonical encoding: JSON with keys in lexicographic order at every level, no white
    /// space, strings escaped minimally, fee lines in their given order.
    public var canonicalBytes: [UInt8] {
        jsonBytes(escaping: .minimal)
    }

    /// The WebAuthn challenge for this quote under `nonce`: `SHA-256(nonce ‖ canonicalBytes)`.
    public func challenge(nonce: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: nonce)
        hasher.update(data: canonicalBytes)
        return Array(hasher.finalize())
    }
}

extension TransferQuote: JSONWritable {
    /// The members in the order of their keys: the canonical encoding, and `JSONEncoder`'s with
    /// sorted keys.
    package func write(to object: inout JSONObjectWriter) {
        object.integer("amount", amount)
        object.string("currency", currency)
        object.string("expiresAt", expiresAt)
        object.objects("fees", fees)
        object.string("payeePhone", payeePhone)
        object.string("quoteId", quoteId)
        object.integer("total", total)
        object.integer("totalFees", totalFees)
        object.string("transferId", transferId)
    }
}

extension TransferQuote.Fee: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.integer("amount", amount)
        object.string("name", name)
    }
}
