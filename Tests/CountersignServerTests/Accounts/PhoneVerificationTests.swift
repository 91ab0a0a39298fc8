import CountersignAPI
import CountersignClient
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// A number belongs to whoever proves it: codes by SMS (the simulator), signup and new-device
/// login with a code, no enumeration, codes that cannot be guessed within their limits, and no
/// squatting.
@Suite("Proven phone numbers")
struct PhoneVerificationTests {
    static func login(_ server: LiveServer, _ request: LoginRequest) async throws -> APIResponse {
        try await server.client.post("/auth/login", request)
    }

    @Test(
        "signup needs the code sent to the number; the number is proven; the device is remembered",
        arguments: TestEngines.all)
    func signupWithCode(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let phone = TestPhones.next()
            let code = try await server.code(phone, .signup)
            let sms = try await server.client.sdk().simulatedMessages(to: phone).messages
            #expect(sms.count == 1 && sms[0].to == "+234" + phone.dropFirst() && sms[0].body.contains(code.code))
            let wrong = try await server.client.post(
                "/auth/signup",
                SignupRequest(
                    verificationId: code.verificationId, code: code.code == "000000" ? "111111" : "000000", name: "Ada",
                    pin: "4827"))
            #expect(wrong.status == 401 && wrong.errorCode == "invalid_code")
            #expect(try await LedgerAudit.count("users", server.database) == 0, "nothing before the code checks out")
            let created = try await server.client.post(
                "/auth/signup",
                SignupRequest(verificationId: code.verificationId, code: code.code, name: "Ada", pin: "4827"))
            #expect(created.status == 201, "\(created.text)")
            let session = try created.decode(SessionResponse.self)
            let security = try await server.client.get("/account/security", token: session.sessionToken).decode(
                AccountSecurityResponse.self)
            #expect(security.phoneVerified && security.phone == "+234" + phone.dropFirst())
            // Single use.
            let again = try await server.client.post(
                "/auth/signup",
                SignupRequest(verificationId: code.verificationId, code: code.code, name: "Eve", pin: "4827"))
            #expect(again.status == 401 && again.errorCode == "code_expired")
            // The device that signed up signs in with the PIN alone; another needs a code.
            let remembered = try await Self.login(
                server, LoginRequest(phone: phone, pin: "4827", deviceToken: session.deviceToken))
            #expect(remembered.status == 200)
            #expect(try remembered.decode(SessionResponse.self).deviceToken == nil, "a known device gets no new token")
            let stranger = try await Self.login(server, LoginRequest(phone: phone, pin: "4827"))
            #expect(stranger.status == 401 && stranger.errorCode == "phone_code_required")
            let loginCode = try await server.code(phone, .login)
            let fresh = try await Self.login(
                server,
                LoginRequest(phone: phone, pin: "4827", verificationId: loginCode.verificationId, code: loginCode.code))
            #expect(fresh.status == 200, "\(fresh.text)")
            let newDevice = try fresh.decode(SessionResponse.self)
            #expect(newDevice.deviceToken != nil)
            let devices = try await server.client.get("/account/devices", token: newDevice.sessionToken).decode(
                RememberedDeviceList.self)
            #expect(devices.devices.count == 2 && devices.devices.filter(\.current).count == 1)
            let activity = try await server.client.get("/account/activity", token: newDevice.sessionToken).decode(
                AccountActivity.self)
            #expect(activity.events.map(\.kind).contains(.newDeviceSignIn))
            // The holder's phone heard of the new sign-in.
            let notices = try await server.messages(to: phone, containing: "new device")
            #expect(notices.contains { $0.body.contains("new device") })
        }
    }

    @Test(
        "asking for a code says nothing about who has an account; a signup on a taken number warns its holder",
        arguments: TestEngines.all)
    func noEnumeration(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let nobody = TestPhones.next()
            for purpose in VerificationPurpose.allCases {
                let known = try await server.client.post(
                    "/auth/phone/verifications", PhoneVerificationRequest(phone: user.phone, purpose: purpose))
                let unknown = try await server.client.post(
                    "/auth/phone/verifications", PhoneVerificationRequest(phone: nobody, purpose: purpose))
                #expect(known.status == 202 && unknown.status == 202, "\(purpose)")
                let a = try known.decode(PhoneVerificationResponse.self)
                let b = try unknown.decode(PhoneVerificationResponse.self)
                #expect(a.expiresIn == b.expiresIn && a.resendAfter == b.resendAfter)
            }
            // A login without a code is refused the same way, registered or not, before any PIN is judged.
            let known = try await Self.login(server, LoginRequest(phone: user.phone, pin: "9999"))
            let unknown = try await Self.login(server, LoginRequest(phone: nobody, pin: "9999"))
            #expect(known.errorCode == "phone_code_required" && unknown.errorCode == "phone_code_required")
            #expect(try await PinLockoutTests.pinAttempts(server, user) == 0)
            // The holder heard of the signup attempt, and no code reached the unknown number for login.
            let warned = try await server.messages(to: user.phone, containing: "tried to open a Countersign account")
            #expect(warned.contains { $0.body.contains("tried to open a Countersign account") })
            let sent = try await server.messages(to: nobody, containing: "to open your Countersign account")
            #expect(sent.count == 1, "only the signup code: \(sent.map(\.body))")
        }
    }

    @Test(
        "30 parallel guesses at a code: five are compared, then even the right code is spent",
        arguments: TestEngines.all)
    func guessesAreBounded(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let phone = TestPhones.next()
            let code = try await server.code(phone, .signup)
            let statuses = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<30 {
                    let guess = String(format: "%06d", (Int(code.code)! + 1 + index) % 1_000_000)
                    group.addTask {
                        try await server.client.post(
                            "/auth/signup",
                            SignupRequest(verificationId: code.verificationId, code: guess, name: "Eve", pin: "4827")
                        ).errorCode
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == "invalid_code" }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == "code_expired" }.count == 25, "\(statuses)")
            let right = try await server.client.post(
                "/auth/signup",
                SignupRequest(verificationId: code.verificationId, code: code.code, name: "Ada", pin: "4827"))
            #expect(right.status == 401 && right.errorCode == "code_expired")
            // Stored only as a keyed hash.
            let stored = try await server.database.read { sql in
                try await sql.first(
                    "SELECT code_hash FROM phone_verifications WHERE id = $1", [.text(code.verificationId)])?
                    .string("code_hash")
            }
            #expect(stored != nil && stored?.contains(code.code) == false)
        }
    }

    @Test("a code expires after 10 minutes and works only for its purpose", arguments: TestEngines.all)
    func expiryAndPurpose(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let phone = TestPhones.next()
            let code = try await server.code(phone, .signup)
            server.clock.advance(seconds: 601)
            let late = try await server.client.post(
                "/auth/signup",
                SignupRequest(verificationId: code.verificationId, code: code.code, name: "Ada", pin: "4827"))
            #expect(late.errorCode == "code_expired")
            let user = try await server.signup()
            let recover = try await server.code(user.phone, .recover)
            let misused = try await Self.login(
                server,
                LoginRequest(
                    phone: user.phone, pin: user.pin, verificationId: recover.verificationId, code: recover.code))
            #expect(misused.status == 401 && misused.errorCode == "code_expired", "a recover code is no login code")
        }
    }

    @Test(
        "no squatting: an unfinished signup blocks nobody; an unproven account loses the number to whoever proves it",
        arguments: TestEngines.all)
    func noSquatting(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            // Asked, never finished: the owner signs up all the same.
            let phone = TestPhones.next()
            _ = try await server.code(phone, .signup)
            let owner = try await server.signup(phone: phone)
            #expect(!owner.userId.isEmpty)
            // An account from before numbers were proven: unproven, it receives no transfers, and the
            // number's holder takes the number by proving it.
            let squatter = try await server.fundedUser()
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE users SET phone_verified_at = NULL WHERE id = $1", [.text(squatter.userId)])
            }
            let payer = try await server.fundedUser()
            let refused = try await server.createTransfer(payer, to: squatter.phone)
            #expect(refused.status == 422 && refused.errorCode == "payee_unverified", "\(refused.text)")
            let holder = try await server.signup(phone: squatter.phone, name: "Real Owner")
            #expect(holder.userId != squatter.userId)
            let released = try await server.client.get("/user/wallet", token: squatter.token)
            #expect(released.status == 401, "the squatter's sessions ended")
            let events = try await server.database.read { sql in
                try await sql.query("SELECT kind FROM account_events WHERE user_id = $1", [.text(squatter.userId)])
            }
            #expect(try events.contains { try $0.string("kind") == "phone_released" })
            // Transfers to the number now reach its holder.
            let paid = try await server.quotedTransfer(payer, to: squatter.phone)
            #expect(paid.status == .authorizationRequired, "\(paid)")
        }
    }

    @Test(
        "an account opened before numbers were proven proves its number at its next login", arguments: TestEngines.all)
    func legacyAccountVerifiesAtLogin(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            try await server.database.transaction { sql in
                try await sql.execute("UPDATE users SET phone_verified_at = NULL WHERE id = $1", [.text(user.userId)])
                try await sql.execute("DELETE FROM known_devices WHERE user_id = $1", [.text(user.userId)])
            }
            let code = try await server.code(user.phone, .login)
            let login = try await Self.login(
                server,
                LoginRequest(phone: user.phone, pin: user.pin, verificationId: code.verificationId, code: code.code))
            #expect(login.status == 200, "\(login.text)")
            let security = try await server.client.get(
                "/account/security", token: try login.decode(SessionResponse.self).sessionToken
            ).decode(AccountSecurityResponse.self)
            #expect(security.phoneVerified)
        }
    }

    @Test("codes to one number are limited, and so are codes to one country")
    func sendingLimits() async throws {
        try await LiveServer.run(
            .sqlite,
            configure: {
                $0.rateLimits = RateLimits()
                $0.rateLimits.limits[.smsCountry] = .init(count: 3, seconds: 3600)
            }
        ) { server in
            let phone = TestPhones.next()
            let first = try await server.client.post(
                "/auth/phone/verifications", PhoneVerificationRequest(phone: phone, purpose: .signup))
            #expect(first.status == 202)
            let resend = try await server.client.post(
                "/auth/phone/verifications", PhoneVerificationRequest(phone: phone, purpose: .signup))
            #expect(resend.status == 429 && resend.headers.first(name: "Retry-After") != nil, "one per 30 s")
            for _ in 0..<2 {
                #expect(
                    try await server.client.post(
                        "/auth/phone/verifications",
                        PhoneVerificationRequest(phone: TestPhones.next(), purpose: .signup)
                    ).status == 202)
            }
            let budget = try await server.client.post(
                "/auth/phone/verifications", PhoneVerificationRequest(phone: TestPhones.next(), purpose: .signup))
            #expect(budget.status == 429 && budget.errorCode == "rate_limited", "the country's hourly budget")
            let retry = Int(budget.headers.first(name: "Retry-After") ?? "") ?? 0
            #expect((1...3600).contains(retry))
        }
    }

    @Test("GET /sim/sms lists what the simulator sent, newest first; /health says SMS is in test mode")
    func simulatorOutbox() async throws {
        try await LiveServer.run(.sqlite) { server in
            let phone = TestPhones.next()
            _ = try await server.code(phone, .signup)
            _ = try await server.client.post(
                "/auth/phone/verifications", PhoneVerificationRequest(phone: phone, purpose: .login))
            let bad = try await server.client.get("/sim/sms?phone=12")
            #expect(bad.status == 400 && bad.errorCode == "invalid_phone")
            let health = try await server.client.get("/health")
            #expect(health.text.contains(#""smsTestMode":true"#))
        }
    }
}
