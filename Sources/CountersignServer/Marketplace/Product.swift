import CountersignCore

/// A product for sale.
package struct Product: Sendable, Equatable {
    package var id: String
    package var sellerId: String
    package var title: String
    package var askingPrice: Int64
    package var currency: String
    package var shipFrom: Country
    /// Whether the buyer may collect it.
    package var pickup: Bool
    /// The shipping method ids the seller offers.
    package var shippingMethods: [String]
}
