import CountersignAPI
import CountersignCore
import CountersignHarness
import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// Idempotency claims left by a process that died are free as soon as the store knows it is dead
/// (its successor started, or its lease lapsed), so a client's retry is answered at once instead of
/// 409 for five minutes; a live process's claims, and claims linked to a debit, are never taken over.
@Suite("Claim recovery")
struct ClaimRecoveryTests {
    static let now = RepositoryContractTests.now

    @Test(
        "a claim left by a process that died is taken over as soon as the next process starts",
        arguments: TestEngines.all)
    func restart(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser(Self.userId, on: database)
            // The previous process, SIGKILLed a moment ago: its lease has not lapsed yet.
            let old = ServerInstance(
                id: "inst-old", pid: try Self.exitedPID(), pidNamespace: ServerInstance.currentPIDNamespace)
            try await Self.lease(old, database, at: Self.now).start()
            let dead = try await Self.claim("k", owner: old.id, database, at: Self.now)
            guard case .claimed(let deadId) = dead else { throw TestFailure("expected a claim, got \(dead)") }
            #expect(
                try await Self.claim("k", owner: "inst-other", database, at: Self.now + 1_000) == .inFlight,
                "a live lease protects the claim")

            let new = ServerInstance.current()
            let retired = try await Self.lease(new, database, at: Self.now + 2_000).start()
            #expect(retired == [old.id])
            let retry = try await Self.claim("k", owner: new.id, database, at: Self.now + 2_500)
            guard case .claimed(let retryId) = retry else {
                throw TestFailure("the retry after a restart must own the key, got \(retry)")
            }
            #expect(retryId != deadId)
            let owner = try await database.read { sql in
                try await sql.first(
                    "SELECT claim_id FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = 'k'",
                    [.text(Self.userId)])?.string("claim_id")
            }
            #expect(owner == retryId, "the dead request's claim is gone")
        }
    }

    @Test("a live process's claim stays its own until its lease lapses", arguments: TestEngines.all)
    func liveInstance(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser(Self.userId, on: database)
            // Another running process (its pid exists): a peer on the same PostgreSQL database.
            let peer = ServerInstance(
                id: "inst-peer", pid: Int64(getppid()), pidNamespace: ServerInstance.currentPIDNamespace)
            let lease = Self.lease(peer, database, at: Self.now)
            try await lease.start()
            _ = try await Self.claim("k", owner: peer.id, database, at: Self.now)
            if engine == .postgres {
                // A second process starting beside it does not retire it.
                #expect(try await Self.lease(ServerInstance.current(), database, at: Self.now + 1_000).start() == [])
            }
            #expect(try await Self.claim("k", owner: "inst-me", database, at: Self.now + 14_000) == .inFlight)
            // Renewed: still alive 20 s later.
            await Self.lease(peer, database, at: Self.now + 10_000).renew()
            #expect(try await Self.claim("k", owner: "inst-me", database, at: Self.now + 20_000) == .inFlight)
            // No renewal for a full lease: the process is taken for dead.
            let late = try await Self.claim(
                "k", owner: "inst-me", database, at: Self.now + 10_000 + InstanceLease.leaseMillis + 1)
            guard case .claimed = late else { throw TestFailure("a lapsed lease frees the claim, got \(late)") }
            if engine == .postgres {
                // Long silent, it is retired by the next start even though its pid still exists.
                let later = Self.now + 10_000 + InstanceLease.leaseMillis + ServerInstance.retireLapsedAfterMillis + 1
                #expect(try await Self.lease(ServerInstance.current(), database, at: later).start().contains(peer.id))
            }
        }
    }

    @Test(
        "through HTTP: a dead process's claim is answered at once, a live one's is 409, a linked one replays after the sweep",
        arguments: TestEngines.all)
    func http(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            let database = server.database
            let now = server.clock.wallClock.nowMillis()
            let hash = try await Self.topUpHash(server, user)
            let peer = ServerInstance(
                id: "inst-peer", pid: Int64(getppid()), pidNamespace: ServerInstance.currentPIDNamespace)
            try await database.transaction { sql in
                try await sql.serverInstances.renew(
                    ServerInstanceRecord(
                        id: peer.id, pid: peer.pid, pidNamespace: peer.pidNamespace, startedAt: now,
                        leaseExpiresAt: now + InstanceLease.leaseMillis))
            }
            func claim(_ key: String, owner: String) async throws -> String {
                let claim = try await database.transaction { sql in
                    try await sql.idempotency.claim(
                        userId: user.userId, key: key, requestHash: hash, owner: owner, now: now,
                        staleBefore: now - 300_000)
                }
                guard case .claimed(let id) = claim else { throw TestFailure("expected a claim, got \(claim)") }
                return id
            }
            _ = try await claim("live-key", owner: peer.id)
            _ = try await claim("dead-key", owner: "inst-gone")

            #expect(try await server.topUp(user, pin: user.pin, idempotencyKey: "live-key").status == 409)
            let taken = try await server.topUp(user, pin: user.pin, idempotencyKey: "dead-key")
            #expect(taken.status == 200, "\(taken.text)")
            #expect(taken.headers.first(name: "Idempotent-Replayed") == nil)
            #expect(try await server.wallet(user).balance == 9_000)

            // A request of a dead process that had debited the wallet: never taken over, and the
            // sweeper settles it at once (no two-minute wait), after which the retry replays.
            func claimId(_ key: String) async throws -> String? {
                try await database.read { sql in
                    try await sql.first(
                        "SELECT claim_id FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2",
                        [.text(user.userId), .text(key)])?.string("claim_id")
                }
            }
            let intent = PaymentIntent(
                amount: 500, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                supplierSlug: "mtn")
            _ = try await server.services.topUps.debit(
                userId: user.userId, intent: intent, useCashback: false, authorization: .pin,
                idempotency: IdempotencyTicket(key: "linked-key", requestHash: hash, owner: "inst-gone")
            )
            let linkedClaim = try await claimId("linked-key")
            #expect(linkedClaim != nil, "the debit claimed its key")
            #expect(try await server.wallet(user).balance == 8_500)
            #expect(try await server.topUp(user, pin: user.pin, idempotencyKey: "linked-key").status == 409)
            #expect(try await claimId("linked-key") == linkedClaim, "the retry did not take the linked claim over")

            // The same from a process whose lease merely lapsed (it may only be stalled, its supplier
            // call still running): the sweeper leaves that debit to its two-minute rule.
            try await database.transaction { sql in
                try await sql.serverInstances.renew(
                    ServerInstanceRecord(
                        id: "inst-stalled", pid: peer.pid, pidNamespace: peer.pidNamespace, startedAt: now - 60_000,
                        leaseExpiresAt: now - 1))
            }
            _ = try await server.services.topUps.debit(
                userId: user.userId, intent: intent, useCashback: false, authorization: .pin,
                idempotency: IdempotencyTicket(key: "stalled-key", requestHash: hash, owner: "inst-stalled")
            )
            // The server's own sweeper may run a pass at any moment too (at start, under load late):
            // what counts is which top-ups are pending after a pass, not which pass settled them.
            func pendingKeys() async throws -> [String] {
                try await database.read { sql in
                    try await sql.query(
                        "SELECT idempotency_key FROM wallet_transactions WHERE user_id = $1 AND status = 'pending' ORDER BY idempotency_key",
                        [.text(user.userId)]
                    ).map { try $0.string("idempotency_key") }
                }
            }
            await server.services.pendingTopUpSweeper.sweep()
            #expect(try await pendingKeys() == ["stalled-key"], "only the dead process's debit")
            let replay = try await server.topUp(user, pin: user.pin, idempotencyKey: "linked-key")
            #expect(replay.status == 200, "\(replay.text)")
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await server.wallet(user).balance == 8_000, "charged once")
            #expect(try await server.topUp(user, pin: user.pin, idempotencyKey: "stalled-key").status == 409)
            server.clock.advance(seconds: 121)
            await server.services.pendingTopUpSweeper.sweep()
            #expect(try await pendingKeys() == [])
            #expect(
                try await server.topUp(user, pin: user.pin, idempotencyKey: "stalled-key").headers.first(
                    name: "Idempotent-Replayed") == "true")
            #expect(try await server.wallet(user).balance == 8_000)
            try await LedgerAudit.check(database)
        }
    }

    static func lease(_ instance: ServerInstance, _ database: any Database, at millis: Int64) -> InstanceLease {
        InstanceLease(
            instance: instance, database: database,
            clock: WallClock { millis },
            registered: StoreReadiness(), logger: TestDatabase.logger
        )
    }

    /// The single user of the repository-level tests.
    static let userId = "u1"

    static func claim(_ key: String, owner: String, _ database: any Database, at now: Int64) async throws
        -> IdempotencyClaim
    {
        try await database.transaction { sql in
            try await sql.idempotency.claim(
                userId: userId, key: key, requestHash: "h", owner: owner, now: now, staleBefore: now - 300_000)
        }
    }

    /// The pid of a process that has exited (and been reaped): no process has it now.
    /// The hash the server binds the keys of `LiveServer.topUp`'s default top-up to, from a first
    /// request with it (which pays it, by PIN).
    static func topUpHash(_ server: LiveServer, _ user: TestUser) async throws -> String {
        let probe = try await server.topUp(user, pin: user.pin, idempotencyKey: "probe")
        try #require(probe.status == 200, "\(probe.text)")
        return try #require(
            try await server.database.read { sql in
                try await sql.first(
                    "SELECT request_hash FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = 'probe'",
                    [.text(user.userId)])
            }
        ).string("request_hash")
    }

    static func exitedPID() throws -> Int64 {
        let process = try ChildProcess("/bin/true", [], environment: [:])
        process.waitUntilExit()
        return Int64(process.pid)
    }
}
