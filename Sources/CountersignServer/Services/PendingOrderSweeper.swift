import Logging
import ServiceLifecycle

/// Asks the provider, every `interval`, about orders whose payment has been pending for a while, so a
/// payer who walked away or a lost webhook never leaves an order stuck. Settlement is guarded by the
/// order's status and attempt, so several processes sweeping settle each order once.
package struct PendingOrderSweeper: Service {
    let marketplace: MarketplaceService
    let storeReadiness: StoreReadiness
    let minimumAgeMillis: Int64
    let interval: Duration
    let logger: Logger

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await storeReadiness.wait()
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await sweep()
            }
        }
    }

    /// One pass; returns how many pending orders the provider was asked about successfully.
    @discardableResult
    package func sweep() async -> Int {
        let pending: [Order]
        do {
            pending = try await marketplace.pendingOrders(updatedBefore: marketplace.clock.nowMillis() - minimumAgeMillis)
        } catch {
            logger.error("pending order sweep failed", metadata: ["error": "\(error)"])
            return 0
        }
        var asked = 0
        for order in pending {
            do {
                try await marketplace.settlePending(order)
                asked += 1
            } catch {
                logger.error("could not settle a pending order", metadata: ["order": "\(order.id)", "error": "\(error)"])
            }
        }
        return asked
    }
}
