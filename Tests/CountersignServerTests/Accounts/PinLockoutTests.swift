import CountersignAPI
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// One count of PIN failures per account, reserved before the hash runs: however the guesses
/// arrive (in parallel, through login, payments or the step-up, with good signatures in between),
/// at most five are judged before the PIN locks, and only a correct PIN clears the count.
@Suite("PIN lockout")
struct PinLockoutTests {
    /// Sends `count` copies of `request` at once and returns their statuses.
    static func parallel(_ count: Int, _ request: @escaping @Sendable () async throws -> APIResponse) async throws
        -> [Int]
    {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await request().status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The account's count of PIN attempts (judged wrong, or being judged).
    static func pinAttempts(_ server: LiveServer, _ user: TestUser) async throws -> Int64? {
        try await server.database.read { sql in
            try await sql.first("SELECT failed_pin_attempts FROM users WHERE id = $1", [.text(user.userId)])?.int(
                "failed_pin_attempts")
        }
    }

    @Test("30 wrong PINs at once to login: five are judged, the rest are 423", arguments: TestEngines.all)
    func parallelLogins(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let statuses = try await Self.parallel(30) {
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken))
            }
            // The rest are refused unjudged: 429 while the five are in flight, 423 once they locked.
            #expect(statuses.filter { $0 == 401 }.count == 5, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 423 || $0 == 429 }.count == 25, "\(statuses.sorted())")
            #expect(try await Self.pinAttempts(server, user) == 5)
            let right = try await server.client.post(
                "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken))
            #expect(right.status == 423 && right.errorCode == "login_locked")
            #expect(right.headers.first(name: "Retry-After").flatMap(Int.init).map { (1...900).contains($0) } == true)
        }
    }

    @Test("30 wrong PINs at once to top-up: five are judged, nothing is paid", arguments: TestEngines.all)
    func parallelTopUps(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let statuses = try await Self.parallel(30) { try await server.topUp(user, pin: "9999") }
            // Five are counted before the hash and judged; the rest are refused unjudged (429 while
            // the five are in flight, 423 once they locked). Of the five, the failure that set the
            // PIN lock and the one that set the payment lock answer 423, the others 401. Judged after
            // the hash, all 30 were once answered.
            #expect((1...4).contains(statuses.filter { $0 == 401 }.count), "\(statuses.sorted())")
            #expect(statuses.allSatisfy { [401, 423, 429].contains($0) }, "\(statuses.sorted())")
            #expect(try await Self.pinAttempts(server, user) == 5, "no more than five were counted, so judged")
            #expect(try await server.topUp(user, pin: user.pin).status == 423)
            #expect(try await server.wallet(user).balance == 100_000)
        }
    }

    @Test("a good device signature does not clear PIN failures", arguments: TestEngines.all)
    func signatureDoesNotReset(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            for _ in 0..<4 { #expect(try await server.topUp(user, pin: "9999").status == 401) }
            let paid = try await server.topUp(user, token: try await server.authorize(user))
            #expect(paid.status == 200, "\(paid.text)")
            let fifth = try await server.topUp(user, pin: "9999")
            #expect(fifth.status == 423 && fifth.errorCode == "payment_locked", "\(fifth.text)")
            let login = try await server.client.post(
                "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken))
            #expect(login.status == 423 && login.errorCode == "login_locked")
        }
    }

    @Test("login, payments and the step-up share one count", arguments: TestEngines.all)
    func oneCountPerAccount(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            for _ in 0..<2 {
                #expect(
                    try await server.client.post(
                        "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken)
                    ).status
                        == 401)
            }
            for _ in 0..<2 { #expect(try await server.topUp(user, pin: "9999").status == 401) }
            let stepUp = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: "9999"), token: user.token)
            #expect(
                stepUp.status == 423 && stepUp.errorCode == "pin_locked",
                "the fifth failure, in a third place, locks: \(stepUp.text)")
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 423)
            #expect(try await server.topUp(user, pin: user.pin).status == 423)

            server.clock.advance(seconds: 15 * 60 + 1)
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 200)
        }
    }

    @Test(
        "checks a dead process left without a verdict stop counting after 10 s, so the PIN is not busy for good",
        arguments: TestEngines.all)
    func staleChecks(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            // What a SIGKILL during five PIN checks leaves behind: five reservations, no verdicts.
            let now = server.clock.wallClock.nowMillis()
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE users SET pin_checks_in_flight = 5, pin_checks_started_at = $2 WHERE id = $1",
                    [.text(user.userId), .integer(now)]
                )
            }
            let busy = try await server.client.post(
                "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken))
            #expect(
                busy.status == 429 && busy.errorCode == "pin_checks_busy"
                    && busy.headers.first(name: "Retry-After") == "1")
            server.clock.advance(seconds: 11)
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 200)
            // Judged failures are not forgotten that way: they count until a correct PIN.
            for _ in 0..<4 {
                #expect(
                    try await server.client.post(
                        "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken)
                    ).status
                        == 401)
            }
            server.clock.advance(seconds: 60)
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken)
                ).status == 401)
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 423)
        }
    }

    @Test("a correct PIN clears the count", arguments: TestEngines.all)
    func correctPINClears(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            for _ in 0..<4 {
                #expect(
                    try await server.client.post(
                        "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken)
                    ).status
                        == 401)
            }
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 200)
            for _ in 0..<4 {
                #expect(
                    try await server.client.post(
                        "/auth/login", LoginRequest(phone: user.phone, pin: "9999", deviceToken: user.deviceToken)
                    ).status
                        == 401)
            }
            #expect(
                try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
                ).status
                    == 200)
        }
    }
}
