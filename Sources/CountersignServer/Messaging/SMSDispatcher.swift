import Logging
import ServiceLifecycle
import Synchronization

/// Sends queued text messages in the background, so a request that asks for a code answers at once
/// and in the same time whether a message went out or not (whether the number has an account must
/// not show in the response time). Messages live only in this process's memory, never in the store:
/// they carry one-time codes. A message lost to a crash is asked for again by its user ("resend").
///
/// A few messages are sent at once (a provider's API answers in a few hundred milliseconds); a
/// graceful shutdown sends what is queued first.
package final class SMSDispatcher: Service, Sendable {
    let sender: any SMSSender
    let logger: Logger
    let metrics: ServerMetrics
    /// Messages sent at once.
    let concurrency: Int
    private let queue: AsyncStream<Outgoing>
    private let continuation: AsyncStream<Outgoing>.Continuation
    private let pending = Mutex(0)

    struct Outgoing: Sendable {
        let phone: String
        let body: String
        /// What the message is (`code.signup`, `notice.key_bound`): logged and counted, never the body.
        let kind: String
    }

    /// The longest queue kept; past it new messages are dropped (and logged): a flood must not grow
    /// memory without bound, and every limit in front of this queue has already been applied.
    static let capacity = 10_000

    package init(sender: any SMSSender, logger: Logger, metrics: ServerMetrics, concurrency: Int = 8) {
        self.sender = sender
        self.logger = logger
        self.metrics = metrics
        self.concurrency = concurrency
        (queue, continuation) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .unbounded)
    }

    /// Queues `body` for `phone`; returns at once.
    package func enqueue(to phone: String, body: String, kind: String) {
        let accepted = pending.withLock { count -> Bool in
            guard count < Self.capacity else { return false }
            count += 1
            return true
        }
        guard accepted else {
            logger.error("SMS queue full; message dropped", metadata: ["kind": "\(kind)"])
            metrics.sms(kind: kind, outcome: "dropped")
            return
        }
        continuation.yield(Outgoing(phone: phone, body: body, kind: kind))
    }

    /// Messages queued and not yet sent.
    package var backlog: Int { pending.withLock { $0 } }

    package func run() async throws {
        let continuation = self.continuation
        // At shutdown: take no new messages; the loop below sends what is queued, then ends.
        let drain = Task {
            try? await gracefulShutdown()
            continuation.finish()
        }
        defer { drain.cancel() }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await message in queue {
                if running >= concurrency {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { await self.deliver(message) }
            }
        }
    }

    private func deliver(_ message: Outgoing) async {
        defer { pending.withLock { $0 -= 1 } }
        do {
            let sent = try await sender.send(to: message.phone, body: message.body)
            metrics.sms(kind: message.kind, outcome: "sent")
            logger.debug("SMS sent", metadata: ["kind": "\(message.kind)", "provider_id": "\(sent.providerId)"])
        } catch {
            metrics.sms(kind: message.kind, outcome: "failed")
            logger.error("SMS not sent", metadata: ["kind": "\(message.kind)", "error": "\(error)"])
        }
    }
}
