/// One HTTP attempt, as the delivery log shows it.
package struct WebhookAttempt: Sendable, Equatable {
    package let id: String
    package let deliveryId: String
    package let eventId: String
    package let eventType: String
    package let attemptedAt: Int64
    package let statusCode: Int64?
    package let error: String?
    package let latencyMillis: Int64
}
