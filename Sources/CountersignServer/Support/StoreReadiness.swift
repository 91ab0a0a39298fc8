import Synchronization

/// Opens once the store is migrated: background workers wait on it so that they never query
/// tables a first start has not created yet.
package final class StoreReadiness: Sendable {
    private let ready = Atomic<Bool>(false)

    package init() {}

    /// The store is migrated.
    package func open() { ready.store(true, ordering: .releasing) }

    /// Returns once `open()` has been called, or when the task is cancelled (a start-up that failed
    /// must not leave a worker waiting forever).
    package func wait() async {
        // Start-up is a one-off; checking every 50 ms costs nothing and cancels cleanly.
        while !ready.load(ordering: .acquiring), !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
