import Synchronization

/// Opens once the store is migrated: background workers wait on it so that they never query
/// tables a first start has not created yet.
package final class StoreReadiness: Sendable {
    private let state = Mutex<(ready: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// The store is migrated; wakes every waiter.
    package func open() {
        let waiters = state.withLock { state in
            state.ready = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `open()` has been called.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if !state.ready { state.waiters.append(continuation) }
                return state.ready
            }
            if resumeNow { continuation.resume() }
        }
    }
}
