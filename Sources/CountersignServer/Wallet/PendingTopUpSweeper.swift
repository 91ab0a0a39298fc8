import CountersignCore
import CountersignStore
import Logging
import ServiceLifecycle

/// Settles top-ups left `pending` by a process that stopped between debiting the wallet and
/// hearing back from the supplier: it asks the supplier what became of each order and completes
/// or reverses it. Settlement is conditional on the row still being pending, so two server
/// processes sweeping the same database settle each top-up once.
package struct PendingTopUpSweeper: Service {
    /// Settles each top-up the supplier has an outcome for.
    let topUps: TopUpService
    let database: any Database
    let clock: WallClock
    let supplier: any AirtimeSupplier
    let metrics: ServerMetrics
    let logger: Logger
    /// This process: its own requests' top-ups are never orphans.
    let instance: ServerInstance
    /// Opens when this instance is registered (and dead ones retired), after migrations.
    let ready: StoreReadiness
    /// Top-ups older than this are touched whoever debited them; younger ones only when the
    /// process that debited them is known to be gone (see `WalletTransactionRepository.pending`).
    let minimumAgeMillis: Int64
    let interval: Duration

    /// The server's `minimumAgeMillis`: two minutes, well past any supplier call a live request makes.
    package static let defaultMinimumAgeMillis: Int64 = 120_000
    /// The server's `interval` between passes.
    package static let defaultInterval: Duration = .seconds(60)
    /// By this age a top-up has been through at least one pass of the server's sweeper: one still
    /// pending is one the sweeper could not settle (the supplier has no record of it, or no sweeper runs).
    package static let settledWithinMillis: Int64 =
        defaultMinimumAgeMillis + defaultInterval.components.seconds * 1000

    /// Sweeps at once when the instance is registered, so that what a crashed process left behind
    /// (and its retries) is settled within moments of a restart, then every `interval` until
    /// graceful shutdown.
    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await ready.wait()
            while !Task.isCancelled {
                await sweep()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// One pass; returns how many top-ups it settled.
    @discardableResult
    package func sweep() async -> Int {
        let (cutoff, id) = (clock.nowMillis() - minimumAgeMillis, instance.id)
        let pending: [WalletTransaction]
        do {
            pending = try await database.read { sql in
                try await sql.walletTransactions.pending(olderThan: cutoff, orOrphanedExcept: id)
            }
        } catch {
            logger.passFailed("pending top-up sweep failed", error)
            return 0
        }
        metrics.backlog(worker: "pending_top_ups", count: pending.count(where: { $0.type == .topup }))
        var settled = 0
        for transaction in pending where transaction.type == .topup {
            guard let network = transaction.supplierSlug.flatMap(AirtimeNetwork.init(rawValue:)),
                let phone = transaction.recipientPhone
            else { continue }
            let order = AirtimeOrder(
                transactionId: transaction.id, network: network, recipientPhone: phone, amount: transaction.amount,
                currency: transaction.currency)
            do {
                guard let outcome = try await supplier.outcome(ofTransaction: transaction.id, order: order)
                else {
                    logger.warning(
                        "supplier has no record of a pending top-up; left for an operator",
                        metadata: ["transaction": "\(transaction.id)"])
                    continue
                }
                _ = try await topUps.settle(transaction, outcome: outcome)
                settled += 1
                logger.notice("settled pending top-up", metadata: ["transaction": "\(transaction.id)"])
            } catch let error as APIError where error.code == .alreadySettled {
                continue
            } catch {
                logger.passFailed(
                    "could not settle pending top-up", error, metadata: ["transaction": "\(transaction.id)"])
            }
        }
        return settled
    }
}
