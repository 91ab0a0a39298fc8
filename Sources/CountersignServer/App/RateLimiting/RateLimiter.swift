import Synchronization

/// Fixed-window counters per bucket and key, in this process's memory (each instance counts its own
/// share; behind a load balancer of N instances a client gets up to N times the limit).
package final class RateLimiter: Sendable {
    let limits: RateLimits
    let clock: WallClock
    private let windows = Mutex<[Key: Window]>([:])

    struct Key: Hashable {
        let bucket: RateLimits.Bucket
        let value: String
    }

    struct Window {
        var start: Int64
        var count: Int
    }

    /// The most keys kept at once; past it, lapsed windows are dropped, then (an address-spraying
    /// flood) the oldest half, so memory stays bounded at the price of forgetting some counts.
    static let maximumKeys = 100_000

    package init(limits: RateLimits, clock: WallClock) {
        self.limits = limits
        self.clock = clock
    }

    /// Counts one request against each `(bucket, key)`; throws 429 `rate_limited` with the seconds
    /// until the fullest window resets if any of them is used up (then none is counted).
    package func check(_ keys: [(RateLimits.Bucket, String)]) throws(APIError) {
        guard limits.enabled else { return }
        let now = clock.nowMillis()
        let wait = windows.withLock { windows -> Int64? in
            var waits: [Int64] = []
            for (bucket, value) in keys {
                guard let limit = limits.limits[bucket] else { continue }
                let key = Key(bucket: bucket, value: value)
                if let window = windows[key], now - window.start < limit.seconds * 1000, window.count >= limit.count {
                    waits.append(window.start + limit.seconds * 1000 - now)
                }
            }
            if let longest = waits.max() { return longest }
            for (bucket, value) in keys {
                guard let limit = limits.limits[bucket] else { continue }
                let key = Key(bucket: bucket, value: value)
                if let window = windows[key], now - window.start < limit.seconds * 1000 {
                    windows[key]?.count = window.count + 1
                } else {
                    windows[key] = Window(start: now, count: 1)
                }
            }
            if windows.count > Self.maximumKeys { Self.prune(&windows, now: now, limits: limits) }
            return nil
        }
        if let wait {
            throw APIError(
                .rateLimited, "Too many requests. Try again later.", retryAfter: Int(max(1, (wait + 999) / 1000)))
        }
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
