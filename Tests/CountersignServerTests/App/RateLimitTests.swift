import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Signup, login, PIN checks and challenge issuance are limited per client address and per
/// account: 429 with Retry-After past the limit. A forwarded address counts only from a trusted proxy.
@Suite("Rate limits")
struct RateLimitTests {
    static func limited(_ settings: [String], proxies: [String] = []) -> @Sendable (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.rateLimits = RateLimits()
            for setting in settings { try? configuration.rateLimits.apply(setting) }
            configuration.trustedProxies = proxies
        }
    }

    static func signup(_ server: LiveServer, forwardedFor: String? = nil) async throws -> APIResponse {
        try await server.client.post(
            "/auth/signup", try await server.client.signupBody(phone: TestPhones.next(), name: "Ada", pin: "4827"),
            headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? []
        )
    }

    @Test(
        "signups per address: the fourth of three is 429 until the window ends; a forged X-Forwarded-For changes nothing",
        arguments: TestEngines.all)
    func signupsPerAddress(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.limited(["signup-address=3/600"])) { server in
            for index in 0..<3 {
                #expect(try await Self.signup(server, forwardedFor: "203.0.113.\(index)").status == 201)
            }
            let refused = try await Self.signup(server, forwardedFor: "198.51.100.7")
            #expect(refused.status == 429 && refused.errorCode == "rate_limited", "\(refused.text)")
            #expect(refused.headers.first(name: "Retry-After") == "600")
            #expect(try await LedgerAudit.count("users", server.database) == 3, "nothing written")
            server.clock.advance(seconds: 600)
            #expect(try await Self.signup(server).status == 201)
        }
    }

    @Test("behind a trusted proxy, each forwarded client has its own count", arguments: TestEngines.all)
    func trustedProxy(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.limited(["signup-address=1/600"], proxies: ["127.0.0.1"])) {
            server in
            let first = try await Self.signup(server, forwardedFor: "203.0.113.1")
            let second = try await Self.signup(server, forwardedFor: "203.0.113.2")
            #expect(first.status == 201 && second.status == 201)
            // Our proxy appended 127.0.0.1 after what its client sent: the client is 203.0.113.2 again.
            let again = try await Self.signup(server, forwardedFor: "203.0.113.2, 127.0.0.1")
            #expect(again.status == 429)
            // The client wrote the first entry itself; the rightmost untrusted entry is the one that counts.
            let forged = try await Self.signup(server, forwardedFor: "10.9.9.9, 203.0.113.1")
            #expect(forged.status == 429)
        }
    }

    @Test("logins per phone number, whoever sends them", arguments: TestEngines.all)
    func loginsPerPhone(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.limited(["login-phone=2/600"], proxies: ["127.0.0.1"])) {
            server in
            let user = try await server.signup()
            for address in ["203.0.113.1", "203.0.113.2"] {
                let login = try await server.client.post(
                    "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken),
                    headers: [("X-Forwarded-For", address)])
                #expect(login.status == 200)
            }
            // The same number written another way is the same number.
            let e164 = "+234" + user.phone.dropFirst()
            let third = try await server.client.post(
                "/auth/login", LoginRequest(phone: e164, pin: user.pin), headers: [("X-Forwarded-For", "203.0.113.3")])
            #expect(third.status == 429 && third.errorCode == "rate_limited")
        }
    }

    @Test("PIN payments and challenges per account", arguments: TestEngines.all)
    func perAccount(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.limited(["pin-account=2/60", "challenge-account=2/60"])) {
            server in
            // fundedUser's registration took one PIN check (its step-up) and one challenge.
            let user = try await server.fundedUser()
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
            let third = try await server.topUp(user, pin: user.pin)
            #expect(third.status == 429 && third.errorCode == "rate_limited")
            #expect(try await server.wallet(user).balance == 99_500)

            #expect(try await server.authOptions(user).status == 200)
            #expect(try await server.authOptions(user).status == 429)
            #expect(try await server.client.post("/biometric/step-up/options", token: user.token).status == 429)
        }
    }

    @Test("a --rate-limit setting is checked")
    func settings() throws {
        var limits = RateLimits()
        try limits.apply("login-phone=5/60")
        #expect(limits.limits[.loginPhone] == .init(count: 5, seconds: 60))
        for bad in [
            "nope=1/1", "login-phone=0/60", "login-phone=5", "login-phone=5/0", "login-phone=x/60",
            "login-phone=9223372036854775807/60",
        ] {
            #expect(throws: RateLimitSettingError.self, "\(bad)") { try limits.apply(bad) }
        }
    }

    @Test("the bench's --rate-limits raises every bucket the server has")
    func benchRaisesEveryBucket() throws {
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../Sources/countersign-bench/ServerUnderTest.swift"), encoding: .utf8)
        let list = try #require(source.range(of: "raisedRateLimits = [").map { source[$0.upperBound...] })
        let names = list[..<(list.firstIndex(of: "]") ?? list.endIndex)].split(separator: "\"").enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(names) == Set(RateLimits.Bucket.allCases.map(\.rawValue)), "\(names)")
    }
}
