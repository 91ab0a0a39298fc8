/// The events an endpoint may subscribe to: `<resource>.<what happened>`, each the final state of a
/// money movement (or an order's later steps). `*` subscribes to all, including types added later.
package enum WebhookEventType {
    /// Every type the server sends, in the order the docs list them.
    package static let known: [String] = [
        "topup.completed", "topup.failed",
        "transfer.completed", "transfer.failed", "transfer.declined", "transfer.expired", "transfer.cancelled",
        "order.paid", "order.cancelled", "order.expired", "order.shipped", "order.completed",
        "wallet.credited",
    ]

    /// Subscribes to every type.
    package static let all = "*"

    /// Whether an endpoint subscribed to `subscribed` receives `type`.
    package static func matches(_ subscribed: [String], _ type: String) -> Bool {
        subscribed.contains(all) || subscribed.contains(type)
    }
}
