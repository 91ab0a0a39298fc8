import CountersignStore

/// `webhook_endpoints`, in SQL both engines share.
package struct WebhookEndpointRepository: Sendable {
    let sql: any SQLExecutor

    /// A scalar subquery: whether any endpoint is live and enabled (1 or 0), for a statement that
    /// reads it with its own work (`WalletTransactionRepository.finish`).
    static let anyLive = """
        (SELECT COUNT(*) FROM (SELECT 1 FROM webhook_endpoints WHERE removed_at IS NULL AND enabled = 1 LIMIT 1) AS live)
        """

    /// The ids of the live, enabled endpoints subscribed to `type`.
    func subscribed(to type: String) async throws -> [String] {
        try await sql.query(
            "SELECT id, event_types FROM webhook_endpoints WHERE removed_at IS NULL AND enabled = 1 ORDER BY id", []
        ).compactMap { row in
            WebhookEventType.matches(Self.types(try row.string("event_types")), type) ? try row.string("id") : nil
        }
    }

    /// `subscribed(to:)` as a `SELECT` of the endpoints' `id`s, each with its place in their order
    /// (`n`, from 1), to make inside another PostgreSQL statement: `type` (appended to `binds`) is one of the
    /// comma-separated `event_types`, or they list every type (`WebhookEventType.matches`).
    static func subscribedSelect(to type: String, binds: inout [SQLValue]) -> String {
        binds.append(.text("," + type + ","))
        return """
            SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS n FROM webhook_endpoints
            WHERE removed_at IS NULL AND enabled = 1 AND (strpos(',' || event_types || ',', ',\(WebhookEventType.all),') > 0
                OR strpos(',' || event_types || ',', $\(binds.count)) > 0)
            """
    }

    func insert(_ endpoint: WebhookEndpoint, createdBy: String?) async throws {
        try await sql.execute(
            """
            INSERT INTO webhook_endpoints (id, url, secret, event_types, enabled, created_by, created_at)
            VALUES ($1, $2, $3, $4, 1, $5, $6)
            """,
            [
                .text(endpoint.id), .text(endpoint.url), .text(endpoint.secret),
                .text(endpoint.eventTypes.joined(separator: ",")), .text(createdBy), .integer(endpoint.createdAt),
            ])
    }

    /// The live endpoints, oldest first.
    func list() async throws -> [WebhookEndpoint] {
        try await sql.query("SELECT * FROM webhook_endpoints WHERE removed_at IS NULL ORDER BY created_at, id", []).map(
            Self.endpoint(from:))
    }

    func find(id: String) async throws -> WebhookEndpoint? {
        try await sql.first("SELECT * FROM webhook_endpoints WHERE id = $1 AND removed_at IS NULL", [.text(id)]).map(
            Self.endpoint(from:))
    }

    /// Removes a live endpoint (its pending deliveries are not sent); false if there is none.
    func remove(id: String, now: Int64) async throws -> Bool {
        let removed = try await sql.query(
            "UPDATE webhook_endpoints SET removed_at = $2 WHERE id = $1 AND removed_at IS NULL RETURNING id",
            [.text(id), .integer(now)])
        guard !removed.isEmpty else { return false }
        try await sql.execute(
            "UPDATE webhook_deliveries SET status = 'failed', finished_at = $2 WHERE endpoint_id = $1 AND status = 'pending'",
            [.text(id), .integer(now)])
        return true
    }

    /// Enables a live endpoint again, its run of failures forgotten; false if there is none.
    func enable(id: String) async throws -> Bool {
        !(try await sql.query(
            """
            UPDATE webhook_endpoints SET enabled = 1, failing_since = NULL, disabled_at = NULL
            WHERE id = $1 AND removed_at IS NULL RETURNING id
            """, [.text(id)])).isEmpty
    }

    /// After an attempt: a success ends the run of failures; a failure starts one, and one that has
    /// lasted `disableAfterMillis` disables the endpoint. Returns true if this call disabled it.
    func noteAttempt(
        endpointId: String, succeeded: Bool, now: Int64, disableAfterMillis: Int64
    )
        async throws -> Bool
    {
        if succeeded {
            try await sql.execute(
                "UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1", [.text(endpointId)])
            return false
        }
        try await sql.execute(
            "UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1",
            [.text(endpointId), .integer(now)])
        return
            !(try await sql.query(
                """
                UPDATE webhook_endpoints SET enabled = 0, disabled_at = $2
                WHERE id = $1 AND enabled = 1 AND failing_since <= $3 RETURNING id
                """, [.text(endpointId), .integer(now), .integer(now - disableAfterMillis)])).isEmpty
    }

    static func types(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }

    static func endpoint(from row: SQLRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row.string("id"), url: try row.string("url"), secret: try row.string("secret"),
            eventTypes: types(try row.string("event_types")), enabled: try row.int("enabled") == 1,
            failingSince: try row.optionalInt("failing_since"), disabledAt: try row.optionalInt("disabled_at"),
            createdAt: try row.int("created_at"))
    }

    /// Holds the registrations' lock until the transaction ends (PostgreSQL's advisory lock), so
    /// parallel registrations count the endpoints one at a time.
    func lockRegistrations() async throws {
        try await sql.execute("SELECT pg_advisory_xact_lock(724218)")
    }
}

extension SQLExecutor {
    /// `WebhookEndpointRepository` on this connection or transaction.
    package var webhookEndpoints: WebhookEndpointRepository { WebhookEndpointRepository(sql: self) }
}
