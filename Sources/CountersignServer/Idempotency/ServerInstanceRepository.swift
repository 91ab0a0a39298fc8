import CountersignStore

/// The running server processes (`server_instances`), each renewing its own lease. Idempotency
/// claims name their owner here; a claim whose owner has no live lease belongs to a dead process.
package protocol ServerInstanceRepository: Sendable {
    /// Inserts the instance, or extends its lease if it is there already.
    func renew(_ instance: ServerInstanceRecord, on sql: any SQLExecutor) async throws
    /// Every instance row, live or not.
    func all(on sql: any SQLExecutor) async throws -> [ServerInstanceRecord]
    /// Removes instances known to be dead (or stopping): their claims are free at once.
    func remove(ids: [String], on sql: any SQLExecutor) async throws
}

/// `ServerInstanceRepository` in shared SQL.
package struct ServerInstanceSQLRepository: ServerInstanceRepository {
    package init() {}

    package func renew(_ instance: ServerInstanceRecord, on sql: any SQLExecutor) async throws {
        try await sql.execute(
            """
            INSERT INTO server_instances (id, pid, pid_namespace, started_at, lease_expires_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (id) DO UPDATE SET lease_expires_at = excluded.lease_expires_at
            """,
            [
                .text(instance.id), .integer(instance.pid), .text(instance.pidNamespace), .integer(instance.startedAt),
                .integer(instance.leaseExpiresAt),
            ]
        )
    }

    package func all(on sql: any SQLExecutor) async throws -> [ServerInstanceRecord] {
        try await sql.query("SELECT * FROM server_instances ORDER BY started_at", []).map { row in
            ServerInstanceRecord(
                id: try row.string("id"), pid: try row.int("pid"),
                pidNamespace: try row.optionalString("pid_namespace"),
                startedAt: try row.int("started_at"), leaseExpiresAt: try row.int("lease_expires_at")
            )
        }
    }

    package func remove(ids: [String], on sql: any SQLExecutor) async throws {
        for id in ids {
            try await sql.execute("DELETE FROM server_instances WHERE id = $1", [.text(id)])
        }
    }
}
