import CountersignCore

/// A buyer's shipping address.
package struct Address: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var name: String
    package var line1: String
    package var city: String
    package var postalCode: String
    package var country: Country
}
