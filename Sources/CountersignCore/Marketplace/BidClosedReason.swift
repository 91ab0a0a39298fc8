/// Why a bid ended without a sale to its bidder: what the bidder is told.
public enum BidClosedReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The bidder withdrew it.
    case withdrawn
    /// The seller declined it.
    case declined
    /// The product sold to another buyer.
    case sold
    /// It lapsed: the seller did not answer, or the accepted bid was not paid in time.
    case expired
}
