/// A mobile network whose airtime Countersign sells, with its supplier slug and product code.
public enum AirtimeNetwork: String, Sendable, CaseIterable, Codable {
    case mtn
    case airtel
    case glo
    case nineMobile = "9mobile"

    /// The network's name as its owner writes it, for people: `MTN`, `Airtel`, `Glo`, `9mobile`.
    public var displayName: String {
        switch self {
        case .mtn: "MTN"
        case .airtel: "Airtel"
        case .glo: "Glo"
        case .nineMobile: "9mobile"
        }
    }

    /// The product code the app sends for this network's airtime, e.g. `AIRTIME_MTN`.
    public var productCode: String { "AIRTIME_" + rawValue.uppercased() }

    /// The network sold under a product code, if any.
    public init?(productCode: String) {
        guard let network = AirtimeNetwork.allCases.first(where: { $0.productCode == productCode }) else { return nil }
        self = network
    }
}

/// Limits on one airtime top-up, in minor units.
public enum TopUpLimits {
    /// The smallest top-up: 1.00 NGN.
    public static let minimumAmount: Int64 = 100
    /// The largest top-up: 500,000.00 NGN. Anything above is refused as out of range.
    public static let maximumAmount: Int64 = 50_000_000
    /// Cashback earned on a completed purchase, in basis points (100 = 1%), rounded down.
    public static let cashbackBasisPoints: Int64 = 100

    /// The cashback a completed purchase of `amount` earns: 1%, rounded down to the minor unit.
    public static func cashback(for amount: Int64) -> Int64 {
        amount * cashbackBasisPoints / 10_000
    }
}
