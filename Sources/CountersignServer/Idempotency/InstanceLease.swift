import CountersignStore
import Logging
import ServiceLifecycle

/// Keeps this process's row in `server_instances` alive: registered before the server accepts
/// traffic (retiring the instances that cannot be running any more, so their unfinished claims are
/// free at once), renewed every `renewInterval`, removed on graceful shutdown. While the lease holds,
/// other processes leave this one's idempotency claims alone.
package struct InstanceLease: Service {
    package let instance: ServerInstance
    let database: any Database
    let clock: WallClock
    /// Opens once `start()` has registered this instance: the sweeper waits for it, so its first
    /// pass already counts the retired instances as dead.
    let registered: StoreReadiness
    let logger: Logger

    /// How long a lease lasts without renewal: three missed renewals, so a busy moment does not
    /// make a live process look dead, while a dead one's claims wait at most this long.
    package static let leaseMillis: Int64 = 15_000
    package static let renewInterval: Duration = .seconds(5)

    /// Registers this instance and retires those that cannot be running; returns their ids.
    @discardableResult
    package func start() async throws -> [String] {
        let (engine, now) = (database.engine, clock.nowMillis())
        let retired = try await database.transaction { sql in
            let dead = instance.deadAtStartUp(try await sql.serverInstances.all(), engine: engine, now: now)
            try await sql.serverInstances.remove(ids: dead)
            try await sql.serverInstances.renew(record(now: now, startedAt: now))
            return dead
        }
        if !retired.isEmpty {
            logger.notice(
                "retired server instances that are no longer running; their unfinished claims are free",
                metadata: ["instances": "\(retired)"])
        }
        registered.open()
        return retired
    }

    /// Renews the lease until graceful shutdown, then gives it up.
    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            await registered.wait()
            while !Task.isCancelled {
                try await Task.sleep(for: Self.renewInterval)
                await renew()
            }
        }
        // The server has drained its requests: nothing of ours is in flight any more.
        let id = instance.id
        try? await database.transaction { sql in try await sql.serverInstances.remove(ids: [id]) }
    }

    /// One renewal; a failure is logged and retried at the next interval.
    package func renew() async {
        let now = clock.nowMillis()
        let record = record(now: now, startedAt: now)
        do {
            try await database.transaction { sql in try await sql.serverInstances.renew(record) }
        } catch {
            logger.warning("could not renew the server instance lease", metadata: ["error": "\(error)"])
        }
    }

    private func record(now: Int64, startedAt: Int64) -> ServerInstanceRecord {
        ServerInstanceRecord(
            id: instance.id, pid: instance.pid, pidNamespace: instance.pidNamespace, startedAt: startedAt,
            leaseExpiresAt: now + Self.leaseMillis)
    }
}
