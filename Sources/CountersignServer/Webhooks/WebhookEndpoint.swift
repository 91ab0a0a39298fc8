/// A receiver the operator registered.
package struct WebhookEndpoint: Sendable, Equatable {
    package let id: String
    package let url: String
    /// `whsec_` and the base64 key: what the receiver verifies with.
    package let secret: String
    package let eventTypes: [String]
    package let enabled: Bool
    /// When the current run of failures began; nil while deliveries succeed.
    package let failingSince: Int64?
    package let disabledAt: Int64?
    package let createdAt: Int64
}
