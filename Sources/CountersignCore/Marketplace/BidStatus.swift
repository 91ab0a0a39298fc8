/// Where a bid on a product is. Every payment needs an `ACCEPTED` bid; a product has at most one.
public enum BidStatus: String, Sendable, Hashable, Codable, CaseIterable, StatusMachine {
    /// Made by a buyer, waiting for the seller.
    case new = "NEW"
    /// Accepted by the seller (or a buy-now at the asking price): the buyer may pay.
    case accepted = "ACCEPTED"
    /// Withdrawn by the buyer (an abandoned buy-now too): the product can be bid on again.
    case canceled = "CANCELED"
    /// Lapsed without being accepted or paid.
    case expired = "EXPIRED"
    /// Paid: the order for it took the payment.
    case completed = "COMPLETED"

    /// Whether no further change will happen.
    public var isFinal: Bool { self == .canceled || self == .expired || self == .completed }

    /// Whether a bid may move from this status to `next`: the bid state machine, and its only
    /// definition.
    public func canMove(to next: BidStatus) -> Bool {
        switch (self, next) {
        case (.new, .accepted), (.new, .canceled), (.new, .expired): true
        case (.accepted, .canceled), (.accepted, .expired), (.accepted, .completed): true
        default: false
        }
    }
}
