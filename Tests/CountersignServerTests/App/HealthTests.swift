import CountersignAPI
import CountersignServer
import CountersignStore
import ServiceLifecycle
import Testing

@Suite("Health: liveness and readiness")
struct HealthTests {
    @Test(
        "live answers without the database; ready names the engine, every migration and every worker",
        arguments: TestEngines.all)
    func readyWhenEverythingRuns(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let live = try await server.client.get("/health/live")
            #expect(live.status == 200)
            #expect(try live.decode(LivenessResponse.self).status == "ok")

            let ready = try await Self.readiness(server)
            #expect(ready.status == 200, "\(ready.text)")
            let body = try ready.decode(ReadinessResponse.self)
            #expect(body.status == "ready")
            #expect(body.database == "\(engine)")
            #expect(body.databaseAnswers)
            #expect(body.migrationsApplied == Migrator.all.count && body.migrationsExpected == Migrator.all.count)
            #expect(
                Set(body.workers.keys) == [
                    "instanceLease", "pendingTopUpSweeper", "transferProcessor", "transferChangeListener",
                    "pendingOrderSweeper", "smsDispatcher", "storePurger", "webhookWorker",
                ])
            #expect(body.workers.values.allSatisfy { $0 })
        }
    }

    @Test("a migration the database lacks makes ready 503, and says so", arguments: TestEngines.all)
    func notReadyWithoutAMigration(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            #expect(try await Self.readiness(server).status == 200)
            let last = try #require(Migrator.all.last).version
            try await server.database.transaction { sql in
                try await sql.execute("DELETE FROM schema_migrations WHERE version = $1", [.int(last)])
            }
            let ready = try await server.client.get("/health/ready")
            #expect(ready.status == 503)
            let body = try ready.decode(ReadinessResponse.self)
            #expect(body.status == "not_ready")
            #expect(body.databaseAnswers)
            #expect(body.migrationsApplied == Migrator.all.count - 1)
            // Live is about the process alone.
            #expect(try await server.client.get("/health/live").status == 200)
        }
    }

    @Test("a worker counts as running from the start of its run() until it returns")
    func workerStatus() async throws {
        let status = WorkerStatus()
        let gate = AsyncStream<Void>.makeStream()
        let worker = status.tracking(GatedService(gate: gate.stream), as: "gated")
        #expect(status.snapshot == ["gated": false], "registered, not started")
        let running = Task { try await worker.run() }
        while status.snapshot["gated"] != true { await Task.yield() }
        gate.continuation.finish()
        try await running.value
        #expect(status.snapshot == ["gated": false], "stopped (graceful shutdown ends every worker's run)")
    }

    /// Polls readiness until it is 200 or two seconds have passed: the workers start beside the server.
    static func readiness(_ server: LiveServer) async throws -> APIResponse {
        var response = try await server.client.get("/health/ready")
        for _ in 0..<40 where response.status != 200 {
            try await Task.sleep(for: .milliseconds(50))
            response = try await server.client.get("/health/ready")
        }
        return response
    }
}

/// A service whose run() lasts until its gate's stream ends.
private struct GatedService: Service {
    let gate: AsyncStream<Void>

    func run() async throws {
        for await _ in gate {}
    }
}
