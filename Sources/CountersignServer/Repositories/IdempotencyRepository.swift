/// What the store knows of an idempotency key when a request arrives with it.
package enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new: this request owns it now and must complete or release it.
    case claimed
    /// A request with this key finished: replay its response.
    case replay(status: Int, body: String)
    /// A request with this key is still running.
    case inFlight
    /// The key was used with a different request body.
    case mismatch
}

/// Idempotency keys per user (`Idempotency-Key` header).
package protocol IdempotencyRepository: Sendable {
    func claim(userId: String, key: String, requestHash: String, now: Int64, on sql: any SQLExecutor) async throws -> IdempotencyClaim
    /// Stores the final response for replays.
    func complete(userId: String, key: String, status: Int, body: String, on sql: any SQLExecutor) async throws
    /// Forgets a claim whose request was refused, so the client may retry with the same key.
    func release(userId: String, key: String, on sql: any SQLExecutor) async throws
}

/// `IdempotencyRepository` in shared SQL; the primary key (user_id, idempotency_key) makes a
/// second claim impossible even under concurrency.
package struct IdempotencySQLRepository: IdempotencyRepository {
    package init() {}

    package func claim(userId: String, key: String, requestHash: String, now: Int64, on sql: any SQLExecutor) async throws -> IdempotencyClaim {
        let inserted = try await sql.query(
            """
            INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, state, created_at) VALUES ($1, $2, $3, 'in_flight', $4)
            ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING state
            """,
            [.text(userId), .text(key), .text(requestHash), .integer(now)]
        )
        if !inserted.isEmpty { return .claimed }
        guard let row = try await sql.first(
            "SELECT request_hash, state, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key)]
        ) else {
            // Released between our insert and select: treat as still busy; the client retries.
            return .inFlight
        }
        guard try row.string("request_hash") == requestHash else { return .mismatch }
        guard try row.string("state") == "done", let status = try row.optionalInt("response_status"),
              let body = try row.optionalString("response_body")
        else { return .inFlight }
        return .replay(status: Int(status), body: body)
    }

    package func complete(userId: String, key: String, status: Int, body: String, on sql: any SQLExecutor) async throws {
        try await sql.execute(
            "UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4 WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key), .int(status), .text(body)]
        )
    }

    package func release(userId: String, key: String, on sql: any SQLExecutor) async throws {
        try await sql.execute("DELETE FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_flight'", [.text(userId), .text(key)])
    }
}
