/// A FIFO mutual-exclusion lock for async code: SQLite has one writer, and a connection must not
/// be shared by two transactions at once.
package actor AsyncLock {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Runs `body` while holding the lock.
    package nonisolated func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if !locked {
            locked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            locked = false
        } else {
            // Hand the lock straight to the next waiter: `locked` stays true.
            waiters.removeFirst().resume()
        }
    }
}
