import CountersignAPI
import CountersignStore

/// What happened to an account's security: shown to its holder (`GET /account/activity`) and to
/// operators. Written in the transaction that made it happen.
package struct AccountEventRepository: Sendable {
    let sql: any SQLExecutor

    package func record(
        userId: String, kind: AccountEvent.Kind, detail: String, now: Int64
    ) async throws {
        try await sql.execute(
            "INSERT INTO account_events (id, user_id, kind, detail, created_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(Identifier.make("aev")), .text(userId), .text(kind.rawValue), .text(detail), .integer(now)])
    }

    /// Where a stream starts: just after `eventId` (the user's), or at the newest event now.
    package func cursor(userId: String, after eventId: String?) async throws
        -> AccountEventCursor
    {
        if let eventId,
            let row = try await sql.first(
                "SELECT created_at FROM account_events WHERE id = $1 AND user_id = $2", [.text(eventId), .text(userId)])
        {
            return AccountEventCursor(createdAt: try row.int("created_at"), id: eventId)
        }
        let newest = try await sql.first(
            "SELECT id, created_at FROM account_events WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1",
            [.text(userId)])
        return AccountEventCursor(
            createdAt: try newest?.int("created_at") ?? 0, id: try newest?.string("id") ?? "")
    }

    /// The user's events after `cursor`, oldest first (at most 50), each with its own position.
    package func after(_ cursor: AccountEventCursor, userId: String) async throws
        -> [(AccountEvent, AccountEventCursor)]
    {
        try await sql.query(
            """
            SELECT * FROM account_events WHERE user_id = $1 AND (created_at > $2 OR (created_at = $2 AND id > $3))
            ORDER BY created_at, id LIMIT 50
            """,
            [.text(userId), .integer(cursor.createdAt), .text(cursor.id)]
        ).compactMap { row in
            guard let kind = AccountEvent.Kind(rawValue: try row.string("kind")) else { return nil }
            let (id, createdAt) = (try row.string("id"), try row.int("created_at"))
            return (
                AccountEvent(
                    id: id, kind: kind, detail: try row.string("detail"), at: WallClock.iso8601(millis: createdAt)),
                AccountEventCursor(createdAt: createdAt, id: id)
            )
        }
    }

    /// The user's latest `limit` events, newest first.
    package func list(userId: String, limit: Int) async throws -> [AccountEvent] {
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

/// A position in a user's events: after this time and, at the same time, this id.
package struct AccountEventCursor: Sendable, Equatable {
    package let createdAt: Int64
    package let id: String
}

extension SQLExecutor {
    /// `AccountEventRepository` on this connection or transaction.
    package var accountEvents: AccountEventRepository { AccountEventRepository(sql: self) }
}
