/// An ISO 4217 currency with the number of digits of its minor unit.
///
/// Amounts are always integer minor units (kobo for NGN, cents for EUR); no floating point
/// value ever holds money in Countersign.
public struct Currency: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The ISO 4217 code, e.g. `NGN`.
    public let code: String
    /// How many decimal digits the minor unit has (2 for NGN and EUR).
    public let minorUnitDigits: Int

    /// A currency with its ISO code and minor-unit digits.
    public init(code: String, minorUnitDigits: Int) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
    }

    /// Nigerian naira, the wallet currency of the airtime flow.
    public static let ngn = Currency(code: "NGN", minorUnitDigits: 2)
    /// Euro, the marketplace currency.
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2)

    /// The currencies this build knows, by code.
    public static let known: [String: Currency] = [ngn.code: ngn, eur.code: eur]

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency.known[code] else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown currency \(code)"))
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
