/// One event on its way to one endpoint, as a worker holds it while sending.
package struct WebhookDelivery: Sendable, Equatable {
    package let id: String
    package let eventId: String
    package let endpointId: String
    package let url: String
    package let secret: String
    package let payload: String
    /// Attempts made before this one.
    package let attempts: Int64
    package let eventCreatedAt: Int64
}
