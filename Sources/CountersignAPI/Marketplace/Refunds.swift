import CountersignCore

/// `POST /orders/{id}/refunds`: the order's seller gives back `amount` (minor units, at most what
/// the order has left to refund).
public struct CreateRefundRequest: Codable, Sendable, Equatable {
    public var amount: Int64
    /// Shown to the buyer: 1 to 200 characters.
    public var reason: String

    /// A refund request.
    public init(amount: Int64, reason: String) {
        (self.amount, self.reason) = (amount, reason)
    }
}

/// `POST /operator/orders/{id}/refunds`: an operator refunds an order at any time, confirmed with
/// their PIN.
public struct OperatorRefundRequest: Codable, Sendable, Equatable {
    public var amount: Int64
    public var reason: String
    /// The operator's own PIN.
    public var pin: String

    /// An operator's refund request.
    public init(amount: Int64, reason: String, pin: String) {
        (self.amount, self.reason, self.pin) = (amount, reason, pin)
    }
}

/// A refund of an order, as its buyer, its seller and operators see it.
public struct RefundResponse: Codable, Sendable, Equatable {
    public var id: String
    public var orderId: String
    /// Minor units.
    public var amount: Int64
    public var currency: String
    public var reason: String
    public var status: RefundStatus
    /// `seller` or `operator`.
    public var requestedBy: String
    /// Why the provider could not return the money, when it failed.
    public var failureMessage: String?
    /// ISO 8601, UTC.
    public var createdAt: String
    /// When it last changed, ISO 8601, UTC.
    public var updatedAt: String

    /// A refund.
    public init(
        id: String, orderId: String, amount: Int64, currency: String, reason: String, status: RefundStatus,
        requestedBy: String, failureMessage: String?, createdAt: String, updatedAt: String
    ) {
        (self.id, self.orderId, self.amount, self.currency, self.reason) = (id, orderId, amount, currency, reason)
        (self.status, self.requestedBy, self.failureMessage) = (status, requestedBy, failureMessage)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }
}

/// `GET /orders/{id}/refunds`: the order's refunds, oldest first.
public struct RefundList: Codable, Sendable, Equatable {
    public var refunds: [RefundResponse]
    /// A list.
    public init(refunds: [RefundResponse]) { self.refunds = refunds }
}
