import ServiceLifecycle

/// Asks the provider, every `interval`, about orders whose payment has been pending for a while, so a
/// payer who walked away or a lost webhook never leaves an order stuck. Settlement is guarded by the
/// order's status and attempt, so several processes sweeping settle each order once.
package struct PendingOrderSweeper: Service {
    let marketplace: MarketplaceService
    let storeReadiness: StoreReadiness
    let minimumAgeMillis: Int64
    let interval: Duration

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await storeReadiness.wait()
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await marketplace.sweepPendingOrders(olderThanMillis: minimumAgeMillis)
            }
        }
    }
}
