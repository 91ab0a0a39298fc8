import Logging
import ServiceLifecycle

/// Every `interval`: asks the provider about orders whose payment has been pending for a while, so a
/// payer who walked away or a lost webhook never leaves an order stuck; then expires bids past
/// their time (`MarketplaceTimeouts`), freeing their products. Every move is guarded by status (and
/// attempt), so several processes sweeping settle and expire each order once.
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
                await sweepRefunds()
                await expire()
            }
        }
    }

    /// One pass; returns how many pending orders the provider was asked about successfully.
    @discardableResult
    package func sweep() async -> Int {
        let pending: [Order]
        do {
            pending = try await marketplace.pendingOrders(
                updatedBefore: marketplace.clock.nowMillis() - minimumAgeMillis)
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
                logger.error(
                    "could not settle a pending order", metadata: ["order": "\(order.id)", "error": "\(error)"])
            }
        }
        return asked
    }

    /// One pass over refunds the provider has not settled (or was never reached for): each is asked
    /// about again; returns how many it was asked about successfully.
    @discardableResult
    package func sweepRefunds() async -> Int {
        do {
            var asked = 0
            for refund in try await marketplace.pendingRefunds(
                updatedBefore: marketplace.clock.nowMillis() - minimumAgeMillis)
            {
                do {
                    try await marketplace.advance(refund)
                    asked += 1
                } catch {
                    logger.error(
                        "could not settle a pending refund", metadata: ["refund": "\(refund.id)", "error": "\(error)"])
                }
            }
            return asked
        } catch {
            logger.error("pending refund sweep failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// One expiry pass; returns how many bids expired.
    @discardableResult
    package func expire() async -> Int {
        do {
            return try await marketplace.expireStale()
        } catch {
            logger.error("bid expiry sweep failed", metadata: ["error": "\(error)"])
            return 0
        }
    }
}
