import CountersignStore
import Logging
import ServiceLifecycle

/// Every `interval`: deletes what can never be used again, so the store does not grow without bound
/// with one-time things: payment and step-up challenges, spent verification tokens, one-time codes
/// and their hourly SMS budgets, ended sessions, and the SMS simulator's outbox. Each is kept an
/// hour (a day for sessions, codes and the outbox) past the moment it stopped mattering, so
/// support can still see it for a while; nothing the ledger or the audit reads is touched.
package struct StorePurger: Service {
    let database: any Database
    let clock: WallClock
    let storeReadiness: StoreReadiness
    let interval: Duration
    let logger: Logger

    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await storeReadiness.wait()
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                await purge()
            }
        }
    }

    /// One pass; returns how many rows went, by table.
    @discardableResult
    package func purge() async -> [String: Int] {
        let now = clock.nowMillis()
        // A spent token past its own expiry fails its signature check's expiry first: its row no
        // longer stops a replay. A challenge past its expiry is refused by its lookup.
        let statements: [(String, String, Int64)] = [
            ("challenges", "DELETE FROM challenges WHERE expires_at < $1 RETURNING challenge", now - Self.hour),
            ("consumed_tokens", "DELETE FROM consumed_tokens WHERE expires_at < $1 RETURNING jti", now - Self.hour),
            (
                "sessions",
                "DELETE FROM sessions WHERE expires_at < $1 OR revoked_at < $1 RETURNING token_hash", now - Self.day
            ),
            (
                "phone_verifications", "DELETE FROM phone_verifications WHERE expires_at < $1 RETURNING id",
                now - Self.day
            ),
            ("sms_budgets", "DELETE FROM sms_budgets WHERE hour < $1 RETURNING calling_code", now - Self.day),
            ("simulated_sms", "DELETE FROM simulated_sms WHERE sent_at < $1 RETURNING id", now - Self.day),
        ]
        var purged: [String: Int] = [:]
        for (table, statement, before) in statements {
            do {
                purged[table] = try await database.transaction { sql in
                    try await sql.query(statement, [.integer(before)]).count
                }
            } catch {
                logger.passFailed("store purge failed", error, metadata: ["table": "\(table)"])
            }
        }
        return purged
    }
}
