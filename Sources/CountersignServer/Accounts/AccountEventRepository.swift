import CountersignAPI
import CountersignStore

/// What happened to an account's security: shown to its holder (`GET /account/activity`) and to
/// operators. Written in the transaction that made it happen.
package struct AccountEventSQLRepository: Sendable {
    package init() {}

    package func record(
        userId: String, kind: AccountEvent.Kind, detail: String, now: Int64, on sql: any SQLExecutor
    ) async throws {
        try await sql.execute(
            "INSERT INTO account_events (id, user_id, kind, detail, created_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(Identifier.make("aev")), .text(userId), .text(kind.rawValue), .text(detail), .integer(now)])
    }

    /// The user's latest `limit` events, newest first.
    package func list(userId: String, limit: Int, on sql: any SQLExecutor) async throws -> [AccountEvent] {
        try await sql.query(
            "SELECT * FROM account_events WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(userId), .int(limit)]
        ).compactMap { row in
            guard let kind = AccountEvent.Kind(rawValue: try row.string("kind")) else { return nil }
            return AccountEvent(
                id: try row.string("id"), kind: kind, detail: try row.string("detail"),
                at: WallClock.iso8601(millis: try row.int("created_at")))
        }
    }
}
