import Logging
import ServiceLifecycle

/// Every `interval`: asks the provider about orders whose payment has been pending for a while, so a
/// payer who walked away or a lost webhook never leaves an order stuck; then expires bids past
/// their time (`MarketplaceTimeouts`), freeing their products. Wallet fundings through the same
/// provider follow the same rules (`sweepFundings`). Every move is guarded by status (and attempt),
/// so several processes sweeping settle and expire each order and funding once.
package struct PendingOrderSweeper: Service {
    let marketplace: MarketplaceService
    let fundings: FundingService
    let clock: WallClock
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
                await sweepFundings()
                await expire()
            }
        }
    }

    /// One pass; returns how many pending orders the provider was asked about successfully.
    @discardableResult
    package func sweep() async -> Int {
        await settleEach(
            "order", load: { try await marketplace.pendingOrders(updatedBefore: $0) }, id: \.id,
            settle: { try await marketplace.settlePending($0) })
    }

    /// One pass over pending wallet fundings; returns how many the provider was asked about.
    @discardableResult
    package func sweepFundings() async -> Int {
        await settleEach(
            "funding", load: { try await fundings.pendingFundings(updatedBefore: $0) }, id: \.id,
            settle: { try await fundings.settlePending($0) })
    }

    /// Loads what has been pending for at least `minimumAgeMillis` and settles each, logging (not
    /// throwing) what fails, so one bad row never stops the others; returns how many settled.
    private func settleEach<Item>(
        _ kind: String, load: (Int64) async throws -> [Item], id: (Item) -> String,
        settle: (Item) async throws -> Void
    ) async -> Int {
        let pending: [Item]
        do {
            pending = try await load(clock.nowMillis() - minimumAgeMillis)
        } catch {
            logger.passFailed("pending \(kind) sweep failed", error)
            return 0
        }
        var asked = 0
        for item in pending {
            do {
                try await settle(item)
                asked += 1
            } catch {
                logger.passFailed("could not settle a pending \(kind)", error, metadata: [kind: "\(id(item))"])
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
                updatedBefore: clock.nowMillis() - minimumAgeMillis)
            {
                do {
                    try await marketplace.advance(refund)
                    asked += 1
                } catch {
                    logger.passFailed("could not settle a pending refund", error, metadata: ["refund": "\(refund.id)"])
                }
            }
            return asked
        } catch {
            logger.passFailed("pending refund sweep failed", error)
            return 0
        }
    }

    /// One expiry pass; returns how many bids expired.
    @discardableResult
    package func expire() async -> Int {
        do {
            return try await marketplace.expireStale()
        } catch {
            logger.passFailed("bid expiry sweep failed", error)
            return 0
        }
    }
}
