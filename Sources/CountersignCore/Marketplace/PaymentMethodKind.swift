/// How a buyer pays in the marketplace.
public enum PaymentMethodKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A saved card (3-D Secure may redirect).
    case card
    /// iDEAL: a redirect to the payer's bank.
    case ideal
    /// Bancontact: a redirect to the payer's bank or card app.
    case bancontact
    /// The buyer's Countersign wallet in the order's currency, authorized by the passkey (or PIN):
    /// no provider, no redirect, no fee.
    case wallet

    /// The method's name as payers know it.
    public var displayName: String {
        switch self {
        case .card: "Card"
        case .ideal: "iDEAL"
        case .bancontact: "Bancontact"
        case .wallet: "Wallet"
        }
    }

    /// Whether the payment provider takes this payment (a redirect, a card); `wallet` moves money
    /// inside the ledger only.
    public var usesProvider: Bool { self != .wallet }
}
