import CountersignStore

/// The running server processes (`server_instances`), each renewing its own lease. Idempotency
/// claims name their owner here; a claim whose owner has no live lease belongs to a dead process.
package struct ServerInstanceRepository: Sendable {
    let sql: any SQLExecutor

    /// Inserts the instance, or extends its lease if it is there already.
    package func renew(_ instance: ServerInstanceRecord) async throws {
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

    /// Every instance row, live or not.
    package func all() async throws -> [ServerInstanceRecord] {
        try await sql.query("SELECT * FROM server_instances ORDER BY started_at", []).map { row in
            ServerInstanceRecord(
                id: try row.string("id"), pid: try row.int("pid"),
                pidNamespace: try row.optionalString("pid_namespace"),
                startedAt: try row.int("started_at"), leaseExpiresAt: try row.int("lease_expires_at")
            )
        }
    }

    /// Removes instances known to be dead (or stopping): their claims are free at once.
    package func remove(ids: [String]) async throws {
        for id in ids {
            try await sql.execute("DELETE FROM server_instances WHERE id = $1", [.text(id)])
        }
    }
}

extension SQLExecutor {
    /// `ServerInstanceRepository` on this connection or transaction.
    package var serverInstances: ServerInstanceRepository { ServerInstanceRepository(sql: self) }
}
