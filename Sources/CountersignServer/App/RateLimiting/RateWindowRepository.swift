import CountersignStore

/// The shared rate-limit windows (`rate_windows`), for `RateLimiter` when its counts live in the store.
package struct RateWindowRepository {
    let sql: any SQLExecutor

    /// Counts one request in `key`'s window of `windowMillis` at `now`, opening a new window when the
    /// last one has lapsed. Returns nil, counting nothing, when the open window already holds `limit`
    /// requests: then the window's start. Row locks make concurrent counts from any process exact.
    package func count(key: String, now: Int64, windowMillis: Int64, limit: Int) async throws -> Int64? {
        let lapsedAtOrBefore = now - windowMillis
        let counted = try await sql.first(
            """
            INSERT INTO rate_windows (key, window_start, count) VALUES ($1, $2, 1)
            ON CONFLICT (key) DO UPDATE SET
                window_start = CASE WHEN rate_windows.window_start <= $3 THEN $2 ELSE rate_windows.window_start END,
                count = CASE WHEN rate_windows.window_start <= $3 THEN 1 ELSE rate_windows.count + 1 END
            WHERE rate_windows.window_start <= $3 OR rate_windows.count < $4
            RETURNING count
            """,
            [.text(key), .integer(now), .integer(lapsedAtOrBefore), .integer(Int64(limit))])
        if counted != nil { return nil }
        return try await sql.first("SELECT window_start FROM rate_windows WHERE key = $1", [.text(key)])?.int(
            "window_start") ?? now
    }

    /// Forgets windows that started at or before `before`: they have lapsed for every bucket.
    package func prune(before: Int64) async throws {
        try await sql.execute("DELETE FROM rate_windows WHERE window_start <= $1", [.integer(before)])
    }
}

extension SQLExecutor {
    /// The shared rate-limit windows.
    package var rateWindows: RateWindowRepository { RateWindowRepository(sql: self) }
}
