import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Rate limits counted in the store: two limiters on one database stand for two server processes
/// behind a load balancer, and together they allow what one would, no more.
@Suite("Rate limits shared through the store")
struct SharedRateLimitTests {
    static let pepper = Array(repeating: UInt8(7), count: 32)

    static func limiter(_ database: any Database, _ clock: ManualClock, _ setting: String) throws -> RateLimiter {
        var limits = RateLimits()
        try limits.apply(setting)
        return RateLimiter(limits: limits, clock: clock.wallClock, store: .database(database, pepper: pepper))
    }

    /// The check's refusal, or nil if it passed.
    static func refusal(_ limiter: RateLimiter, _ keys: [(RateLimits.Bucket, String)]) async throws -> APIError? {
        do {
            try await limiter.check(keys)
            return nil
        } catch let error as APIError {
            return error
        }
    }

    @Test(
        "two processes share one count: the fourth of three is refused on either, nothing counted, until the window ends",
        arguments: TestEngines.all)
    func sharedCount(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let clock = ManualClock()
            let (one, two) = (
                try Self.limiter(database, clock, "signup-address=3/600"),
                try Self.limiter(database, clock, "signup-address=3/600")
            )
            let address = [(RateLimits.Bucket.signupAddress, "203.0.113.9")]
            #expect(try await Self.refusal(one, address) == nil)
            #expect(try await Self.refusal(two, address) == nil)
            #expect(try await Self.refusal(one, address) == nil)
            for limiter in [one, two] {
                let refused = try #require(try await Self.refusal(limiter, address))
                #expect(refused.code == .rateLimited && refused.retryAfter == 600)
            }
            // Another address has its own window.
            #expect(try await Self.refusal(two, [(.signupAddress, "203.0.113.10")]) == nil)
            clock.advance(seconds: 599)
            #expect(try await Self.refusal(two, address)?.retryAfter == 1)
            clock.advance(seconds: 1)
            // A new window: three more, the refusals before counted nothing.
            for limiter in [two, one, two] { #expect(try await Self.refusal(limiter, address) == nil) }
            #expect(try await Self.refusal(one, address) != nil)
        }
    }

    @Test("one full bucket refuses the request and counts it in none of its buckets", arguments: TestEngines.all)
    func fullBucketCountsNothing(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let clock = ManualClock()
            var limits = RateLimits()
            try limits.apply("challenge-address=1/60")
            try limits.apply("challenge-account=2/60")
            let limiter = RateLimiter(
                limits: limits, clock: clock.wallClock, store: .database(database, pepper: Self.pepper))
            #expect(try await Self.refusal(limiter, [(.challengeAddress, "a"), (.challengeAccount, "u")]) == nil)
            for _ in 0..<3 {
                #expect(try await Self.refusal(limiter, [(.challengeAddress, "a"), (.challengeAccount, "u")]) != nil)
            }
            // The account's window still holds one request: from another address it passes once more.
            #expect(try await Self.refusal(limiter, [(.challengeAddress, "b"), (.challengeAccount, "u")]) == nil)
            #expect(try await Self.refusal(limiter, [(.challengeAddress, "c"), (.challengeAccount, "u")]) != nil)
        }
    }

    @Test("40 parallel requests through two processes: exactly the limit passes", arguments: TestEngines.all)
    func parallel(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let clock = ManualClock()
            let limiters = [
                try Self.limiter(database, clock, "login-phone=7/600"),
                try Self.limiter(database, clock, "login-phone=7/600"),
            ]
            let passed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        try await Self.refusal(limiters[index % 2], [(.loginPhone, "+2348012345678")]) == nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(passed == 7)
        }
    }

    @Test("the store holds a keyed hash, never the phone number, address or account", arguments: TestEngines.all)
    func keysAreHashed(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let limiter = try Self.limiter(database, ManualClock(), "login-phone=5/600")
            try await limiter.check([(.loginPhone, "+2348012345678")])
            let keys = try await database.read { sql in
                try await sql.query("SELECT key FROM rate_windows", []).map { try $0.string("key") }
            }
            #expect(keys.count == 1)
            #expect(keys.allSatisfy { !$0.contains("2348012345678") && !$0.contains("login") && $0.count == 22 })
        }
    }
}
