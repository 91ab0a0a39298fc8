/// A card saved with a provider for one customer; only its brand, last four digits and expiry are
/// kept, never the number.
package struct SavedCard: Sendable, Equatable {
    /// The payment method id (`pm_…`) a card payment names.
    package let id: String
    /// `visa`, `mastercard`, `amex` or `unknown`.
    package let brand: String
    package let last4: String
    package let expMonth: Int
    package let expYear: Int
}
