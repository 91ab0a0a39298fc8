import CountersignStore
import Logging
import ServiceLifecycle

/// Sends the outbox: leases due deliveries (`WebhookDeliveryRepository.claim`), sends each once
/// per lease, and records the attempt with the delivery's next state. At least once: a process that
/// dies mid-attempt leaves its lease to lapse, and the delivery is sent again (receivers dedupe on
/// `webhook-id`). Several processes on one PostgreSQL share the work without sending an attempt twice.
package struct WebhookDeliveryWorker: Service {
    let database: any Database
    let clock: WallClock
    let instance: ServerInstance
    let ready: StoreReadiness
    let sender: WebhookSender
    let retry: WebhookRetryPolicy
    let metrics: ServerMetrics
    let logger: Logger
    /// The pause between passes that found nothing to send.
    let interval: Duration

    /// Deliveries leased per pass, and sent at once.
    static let batch = 16

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await ready.wait()
            while !Task.isCancelled {
                if await pass() < Self.batch { try await Task.sleep(for: interval) }
            }
        }
    }

    /// One pass: lease, send, record. Returns how many deliveries it attempted.
    @discardableResult
    package func pass() async -> Int {
        let (engine, owner, now) = (database.engine, instance.id, clock.nowMillis())
        // Long enough for the attempt's timeout and its bookkeeping; a lapsed lease means a retry.
        let leaseUntil = now + 2 * Int64(sender.timeout.nanoseconds / 1_000_000) + 10_000
        let claimed: [WebhookDelivery]
        do {
            claimed = try await database.transaction { sql in
                try await sql.webhookDeliveries.claim(
                    now: now, owner: owner, leaseUntil: leaseUntil, limit: Self.batch, engine: engine)
            }
            metrics.backlog(
                worker: "webhooks",
                count: Int(try await database.read { sql in try await sql.webhookDeliveries.backlog() })
            )
        } catch {
            logger.passFailed("webhook delivery pass failed", error)
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed { group.addTask { await attempt(delivery) } }
        }
        return claimed.count
    }

    private func attempt(_ delivery: WebhookDelivery) async {
        let started = ContinuousClock.now
        let attemptedAt = clock.nowMillis()
        let result = await sender.send(delivery, timestamp: attemptedAt / 1000)
        let elapsed = ContinuousClock.now - started
        let now = clock.nowMillis()
        let status: String
        var next = now
        if result.succeeded {
            status = "delivered"
        } else if now - delivery.eventCreatedAt >= retry.giveUpAfterMillis {
            status = "failed"
        } else {
            status = "pending"
            next = now + retry.delay(afterAttempts: delivery.attempts + 1)
        }
        metrics.webhookAttempt(outcome: result.refused ? "refused" : status == "pending" ? "retry" : status)
        let record = WebhookAttempt(
            id: Identifier.make("wha"), deliveryId: delivery.id, eventId: delivery.eventId, eventType: "",
            attemptedAt: attemptedAt, statusCode: result.statusCode, error: result.error,
            latencyMillis: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let (owner, disableAfter, nextAttemptAt) = (instance.id, retry.disableAfterMillis, next)
        do {
            let disabled = try await database.transaction { sql in
                guard
                    try await sql.webhookDeliveries.finish(
                        delivery, owner: owner, status: status, nextAttemptAt: nextAttemptAt, attempt: record)
                else { return false }
                return try await sql.webhookEndpoints.noteAttempt(
                    endpointId: delivery.endpointId, succeeded: result.succeeded, now: now,
                    disableAfterMillis: disableAfter)
            }
            if disabled {
                logger.warning(
                    "webhook endpoint disabled after failing for the whole retry window; an operator can enable it",
                    metadata: ["endpoint": "\(delivery.endpointId)"])
            }
        } catch {
            logger.passFailed(
                "could not record a webhook attempt; the delivery will be retried", error,
                metadata: ["delivery": "\(delivery.id)"])
        }
    }
}
