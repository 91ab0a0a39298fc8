import CountersignStore
import Logging
import ServiceLifecycle

/// Brings versions committed by other server processes to this process's watchers: it listens on
/// the store's `transfers` channel (PostgreSQL `LISTEN`) and signals the feed. A dropped listening
/// connection is reopened after a pause; watchers re-read from the database, so nothing is missed.
package struct TransferChangeListener: Service {
    /// The channel every transfer change is announced on, with the transfer id as payload.
    package static let channel = "countersign_transfers"

    let database: any Database
    let feed: TransferFeed
    let logger: Logger

    package func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown {
                    try await database.listen(channel: Self.channel) { transferId in feed.signal(transferId) }
                }
            } catch {
                guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
                logger.warning(
                    "transfer change listener lost its connection; retrying", metadata: ["error": "\(error)"])
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
            }
        }
    }
}
