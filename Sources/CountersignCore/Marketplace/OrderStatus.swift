/// Where an order is. One order per accepted bid; a payment is taken at most once per order.
public enum OrderStatus: String, Sendable, Hashable, Codable, CaseIterable, StatusMachine {
    /// Created; delivery and payment method may still change.
    case new = "NEW"
    /// A payment was started with the provider; the order waits for its outcome.
    case paymentPending = "PAYMENT_PENDING"
    /// The provider took the payment.
    case paid = "PAID"
    /// Given up (the bid was withdrawn).
    case canceled = "CANCELED"
    /// Never paid in time.
    case expired = "EXPIRED"
    /// The seller shipped it.
    case shipped = "SHIPPED"
    /// Received: the order is done.
    case completed = "COMPLETED"

    /// Whether the buyer may still change delivery and payment method.
    public var isEditable: Bool { self == .new }

    /// Whether the payment was taken: paid, and perhaps shipped or completed since.
    public var isPaid: Bool { self == .paid || self == .shipped || self == .completed }

    /// Whether a bid's order in this status still counts as the bid's open order.
    public var isOpen: Bool { self == .new || self == .paymentPending }

    /// Whether an order may move from this status to `next`: the order state machine, and its only
    /// definition.
    public func canMove(to next: OrderStatus) -> Bool {
        switch (self, next) {
        case (.new, .paymentPending), (.new, .canceled), (.new, .expired), (.new, .paid): true
        // A failed or abandoned attempt returns the order to NEW, so the buyer can choose again.
        case (.paymentPending, .new), (.paymentPending, .paid), (.paymentPending, .canceled),
            (.paymentPending, .expired):
            true
        case (.paid, .shipped), (.shipped, .completed): true
        default: false
        }
    }
}
