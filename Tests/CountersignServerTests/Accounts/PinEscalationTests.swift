import CountersignAPI
import CountersignStore
import Synchronization
import Testing

@testable import CountersignServer

/// The PIN lockout under pressure: locks that grow and end in a block, a lock that a correct PIN
/// arriving late cannot lift, checks kept waiting past their slot dropped unjudged, and a hashing
/// pool that refuses rather than queues without end.
@Suite("PIN lock escalation and hashing capacity")
struct PinEscalationTests {
    static func login(_ server: LiveServer, _ user: TestUser, pin: String) async throws -> APIResponse {
        try await server.client.post(
            "/auth/login", LoginRequest(phone: user.phone, pin: pin, deviceToken: user.deviceToken))
    }

    /// Five wrong PINs through login; the answer to the right one afterwards. The failure that
    /// blocks says so at once.
    static func lockOnce(_ server: LiveServer, _ user: TestUser, blocks: Bool = false) async throws -> APIResponse {
        for _ in 0..<4 { #expect(try await login(server, user, pin: "9999").status == 401) }
        let fifth = try await login(server, user, pin: "9999")
        #expect(fifth.status == (blocks ? 423 : 401), "\(fifth.text)")
        return try await login(server, user, pin: user.pin)
    }

    @Test("each lock is four times the last; the fourth blocks until an operator unlocks", arguments: TestEngines.all)
    func escalation(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            for expected in [900, 3_600, 14_400] {
                let locked = try await Self.lockOnce(server, user)
                #expect(locked.status == 423 && locked.errorCode == "login_locked", "\(locked.text)")
                #expect(locked.headers.first(name: "Retry-After").flatMap(Int.init) == expected)
                server.clock.advance(seconds: Int64(expected) + 1)
            }
            let blocked = try await Self.lockOnce(server, user, blocks: true)
            #expect(blocked.status == 423 && blocked.errorCode == "pin_reset_required", "\(blocked.text)")
            server.clock.advance(seconds: 2 * 86_400)
            let stillBlocked = try await Self.login(server, user, pin: user.pin)
            #expect(stillBlocked.status == 423 && stillBlocked.errorCode == "pin_reset_required")
            let payment = try await server.topUp(user, pin: user.pin)
            #expect(payment.status == 423 && payment.errorCode == "pin_reset_required", "\(payment.text)")
            let account = try await server.database.read { sql in
                try await sql.operators.account(userId: user.userId)
            }
            #expect(account?.pinBlocked == true)

            _ = try await server.database.transaction { sql in
                try await sql.operators.unlock(userId: user.userId)
            }
            #expect(try await Self.login(server, user, pin: user.pin).status == 200)
            // The correct PIN started the ladder again.
            let again = try await Self.lockOnce(server, user)
            #expect(again.headers.first(name: "Retry-After").flatMap(Int.init) == 900)
        }
    }

    @Test("a correct PIN judged after other guesses locked the PIN does not lift the lock", arguments: TestEngines.all)
    func lateCorrectVerdict(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let reservedAt = server.clock.wallClock.nowMillis()
            let first = try await server.database.transaction { sql in
                try await sql.users.reservePinAttempt(
                    userId: user.userId, threshold: 5, now: reservedAt, staleBefore: reservedAt - 10_000)
            }
            #expect(first == .reserved)
            // Its slot lapses while it waits; five more guesses are judged and lock the PIN.
            server.clock.advance(seconds: 11)
            let locked = try await Self.lockOnce(server, user)
            #expect(locked.status == 423)
            let now = server.clock.wallClock.nowMillis()
            let record = try await server.database.transaction { sql in
                try await sql.users.recordPinVerdict(
                    userId: user.userId, correct: true, threshold: 5, now: now, schedule: PinLockSchedule(base: 900))
            }
            guard case .locked = record else {
                Issue.record("a correct verdict cleared a lock: \(record)")
                return
            }
            #expect(try await Self.login(server, user, pin: user.pin).status == 423)
        }
    }

    /// A clock that moves `step` milliseconds on every read after the first.
    static func steppingClock(step: Int64) -> WallClock {
        let reads = Mutex<Int64>(0)
        let start = WallClock.system.nowMillis()
        return WallClock {
            reads.withLock { count in
                defer { count += 1 }
                return start + count * step
            }
        }
    }

    @Test(
        "a check whose hash starts or ends too late after its reservation is dropped: not judged, not counted",
        arguments: TestEngines.all, [6_000, 4_500] as [Int64])
    func lateChecksDropped(engine: DatabaseEngine, step: Int64) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let stored = try #require(
                try await server.database.read { sql in try await sql.users.find(id: user.userId) })
            // Reads: the reservation, the hash's start, then the verdict's deadline. A step of 6 s
            // starts the hash after its 5 s; 4.5 s starts it in time and ends it after its 8 s.
            let clock = Self.steppingClock(step: step)
            let guardian = PinGuard(
                database: server.database,
                pins: PinHasher(
                    pepper: Array("test-pin-pepper-0123456789abcdef012345".utf8), rounds: 1_000,
                    pool: PinHashPool(limit: 4, clock: clock)),
                clock: clock, threshold: 5, schedule: PinLockSchedule(base: 900), metrics: server.services.metrics)
            await #expect(throws: PinHashRefused.self) { _ = try await guardian.check("9999", user: stored) }
            let row = try await server.database.read { sql in
                try await sql.first(
                    "SELECT failed_pin_attempts, pin_checks_in_flight FROM users WHERE id = $1", [.text(user.userId)])
            }
            #expect(try row?.int("failed_pin_attempts") == 0, "a dropped check is never counted as judged")
            #expect(try row?.int("pin_checks_in_flight") == 0, "and gives its slot back at once")
        }
    }

    @Test("a full hashing pool answers 503 server_busy with Retry-After, and gives the checks' slots back")
    func hashingPoolFull() async throws {
        try await LiveServer.run(
            .sqlite,
            configure: {
                $0.pinHashQueueLimit = 1
                $0.pinHashRounds = 60_000
            }
        ) { server in
            // PINs are hashed only for a remembered device (or with a code): six such devices.
            var users: [TestUser] = []
            for _ in 0..<6 { users.append(try await server.signup()) }
            let statuses = try await withThrowingTaskGroup(of: (Int, String?, String?).self) { group in
                for index in 0..<24 {
                    let user = users[index % users.count]
                    group.addTask {
                        let answer = try await server.client.post(
                            "/auth/login",
                            LoginRequest(
                                phone: user.phone, pin: index < 6 ? user.pin : "9999", deviceToken: user.deviceToken))
                        return (answer.status, answer.errorCode, answer.headers.first(name: "Retry-After"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let busy = statuses.filter { $0.0 == 503 }
            #expect(!busy.isEmpty, "\(statuses)")
            #expect(busy.allSatisfy { $0.1 == "server_busy" && $0.2 == "1" }, "\(busy)")
            #expect(statuses.allSatisfy { [200, 401, 423, 429, 503].contains($0.0) }, "never a 500: \(statuses)")
            let inFlight = try await server.database.read { sql in
                try await sql.query("SELECT pin_checks_in_flight FROM users", []).map {
                    try $0.int("pin_checks_in_flight")
                }
            }
            #expect(inFlight.allSatisfy { $0 == 0 }, "refused checks gave their slots back")
        }
    }
}
