import NIOCore
import NIOPosix
import Synchronization

/// Where PIN hashes run: threads of their own, apart from the shared pool where device signatures
/// are verified and SQLite works, with a bound on the hashes waiting.
///
/// Every login hashes, for unknown numbers too (in the same time, so the answer's timing does not
/// tell which numbers are registered). Unbounded, a flood of logins from many addresses queued
/// ahead of every payment's signature check; now it fills only this pool, and past `limit` hashes
/// in flight a request is refused unhashed (503 `server_busy`, `Retry-After`).
package final class PinHashPool: Sendable {
    /// One thread per core: a hash is pure CPU.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    private let limit: Int
    private let clock: WallClock
    private let outstanding = Mutex(0)

    /// A pool admitting at most `limit` hashes at once (running or waiting).
    package init(limit: Int, clock: WallClock) {
        self.limit = max(1, limit)
        self.clock = clock
    }

    /// Runs `work` on the hashing threads. Throws `PinHashRefused` without running it when `limit`
    /// hashes are in flight already, or when it would start after `deadline` (epoch milliseconds).
    package func run<Value: Sendable>(startBy deadline: Int64? = nil, _ work: @escaping @Sendable () throws -> Value)
        async throws -> Value
    {
        let admitted = outstanding.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw PinHashRefused() }
        defer { outstanding.withLock { $0 -= 1 } }
        let clock = self.clock
        return try await Self.threads.runIfActive {
            if let deadline, clock.nowMillis() > deadline { throw PinHashRefused() }
            return try work()
        }
    }
}

/// The hashing pool was full, or a hash waited past its deadline: nothing was judged.
package struct PinHashRefused: Error, Sendable {}

extension APIError {
    /// 503: the server's PIN hashing is at capacity; nothing was judged or counted.
    package static let serverBusy = APIError(
        .serverBusy, "The server is busy checking PINs. Retry in a moment.", retryAfter: 1)
}
