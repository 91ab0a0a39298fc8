import CountersignCodec
import CountersignStore
import Crypto
import Synchronization

/// Fixed-window counters per bucket and key. Where they live is `Store`: in this process's memory
/// (one process serves the store: embedded SQLite), or in the store itself, shared by every process
/// on it (PostgreSQL behind a load balancer: N instances must not give a client N times the limit).
package final class RateLimiter: Sendable {
    /// Where the counts live.
    package enum Store: Sendable {
        /// This process's memory.
        case memory
        /// The `rate_windows` table, keyed by an HMAC of the bucket and key under `pepper`, so the
        /// table holds no phone number, address or account id.
        case database(any Database, pepper: [UInt8])
    }

    let limits: RateLimits
    let clock: WallClock
    let store: Store
    private let windows = Mutex<[Key: Window]>([:])
    /// Checks on the shared store since its lapsed windows were last pruned.
    private let checksSincePrune = Atomic<Int>(0)

    struct Key: Hashable {
        let bucket: RateLimits.Bucket
        let value: String
    }

    struct Window {
        var start: Int64
        var count: Int
    }

    /// The most keys kept at once in memory; past it, lapsed windows are dropped, then (an
    /// address-spraying flood) the oldest half, so memory stays bounded at the price of forgetting
    /// some counts.
    static let maximumKeys = 100_000
    /// How many shared checks pass between two prunes of the lapsed windows in the store.
    static let checksBetweenPrunes = 1_000

    package init(limits: RateLimits, clock: WallClock, store: Store = .memory) {
        self.limits = limits
        self.clock = clock
        self.store = store
    }

    /// Counts one request against each `(bucket, key)`; throws 429 `rate_limited` with the seconds
    /// until the fullest window resets if any of them is used up (then none is counted).
    package func check(_ keys: [(RateLimits.Bucket, String)]) async throws {
        guard limits.enabled else { return }
        let now = clock.nowMillis()
        let counted = keys.compactMap { bucket, value in
            limits.limits[bucket].map { (Key(bucket: bucket, value: value), $0) }
        }
        guard !counted.isEmpty else { return }
        let wait: Int64?
        switch store {
        case .memory:
            wait = countInMemory(counted, now: now)
        case .database(let database, let pepper):
            wait = try await countInStore(counted, now: now, database: database, pepper: pepper)
        }
        if let wait {
            throw APIError(
                .rateLimited, "Too many requests. Try again later.", retryAfter: Int(max(1, (wait + 999) / 1000)))
        }
    }

    /// The longest wait among the full windows, counting nothing then; else nil, with each counted.
    private func countInMemory(_ counted: [(Key, RateLimits.Limit)], now: Int64) -> Int64? {
        windows.withLock { windows -> Int64? in
            var waits: [Int64] = []
            for (key, limit) in counted {
                if let window = windows[key], now - window.start < limit.seconds * 1000, window.count >= limit.count {
                    waits.append(window.start + limit.seconds * 1000 - now)
                }
            }
            if let longest = waits.max() { return longest }
            for (key, limit) in counted {
                if let window = windows[key], now - window.start < limit.seconds * 1000 {
                    windows[key]?.count = window.count + 1
                } else {
                    windows[key] = Window(start: now, count: 1)
                }
            }
            if windows.count > Self.maximumKeys { Self.prune(&windows, now: now, limits: limits) }
            return nil
        }
    }

    /// As `countInMemory`, in one transaction on the store: a full window rolls back the counts
    /// made before it, so a refused request counts nothing there either.
    private func countInStore(
        _ counted: [(Key, RateLimits.Limit)], now: Int64, database: any Database, pepper: [UInt8]
    ) async throws -> Int64? {
        let prune = checksSincePrune.add(1, ordering: .relaxed).newValue % Self.checksBetweenPrunes == 0
        let longestWindow = (limits.limits.values.map(\.seconds).max() ?? 0) * 1000
        do {
            try await database.transaction { sql in
                var waits: [Int64] = []
                for (key, limit) in counted {
                    let windowMillis = limit.seconds * 1000
                    if let start = try await sql.rateWindows.count(
                        key: Self.storedKey(key, pepper: pepper), now: now, windowMillis: windowMillis,
                        limit: limit.count)
                    {
                        waits.append(start + windowMillis - now)
                    }
                }
                if let longest = waits.max() { throw Full(wait: longest) }
                if prune { try await sql.rateWindows.prune(before: now - longestWindow) }
            }
            return nil
        } catch let full as Full {
            return full.wait
        }
    }

    /// A window was full: the transaction rolls back.
    private struct Full: Error {
        let wait: Int64
    }

    /// What the store keeps for `key`: base64url of the first 16 bytes of HMAC-SHA-256 of
    /// `bucket:value` under the pepper, which nobody without the pepper can tie back to a number.
    static func storedKey(_ key: Key, pepper: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("\(key.bucket.rawValue):\(key.value)".utf8), using: SymmetricKey(data: pepper))
        return Base64URL.encode(Array(mac).prefix(16))
    }

    private static func prune(_ windows: inout [Key: Window], now: Int64, limits: RateLimits) {
        windows = windows.filter { key, window in now - window.start < (limits.limits[key.bucket]?.seconds ?? 0) * 1000
        }
        if windows.count > maximumKeys / 2 {
            let keep = windows.sorted { $0.value.start > $1.value.start }.prefix(maximumKeys / 2)
            windows = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }
}
