import CountersignAPI
import CountersignServer
import CountersignStore
import Testing

/// One-time things do not pile up: spent and expired challenges, tokens, codes and ended sessions
/// are deleted once they can never be used again, and nothing else is.
@Suite("Store purge")
struct StorePurgerTests {
    static func count(_ server: LiveServer, _ table: String) async throws -> Int64 {
        try await LedgerAudit.count(table, server.database)
    }

    @Test(
        "expired challenges, spent tokens, old codes and ended sessions go; live ones stay", arguments: TestEngines.all)
    func purge(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let token = try await server.authorize(user)
            #expect(try await server.topUp(user, token: token).status == 200)
            _ = try await server.authOptions(user)
            let ended = try await server.signup()
            _ = try await server.client.post("/auth/logout", token: ended.token)
            let before = (
                try await Self.count(server, "challenges"), try await Self.count(server, "consumed_tokens"),
                try await Self.count(server, "sessions"), try await Self.count(server, "phone_verifications")
            )
            #expect(before.0 >= 3 && before.1 == 1 && before.2 >= 2 && before.3 >= 2)
            // Nothing is due yet.
            _ = await server.services.storePurger.purge()
            #expect(try await Self.count(server, "challenges") == before.0)
            #expect(try await Self.count(server, "consumed_tokens") == 1)

            server.clock.advance(seconds: 2 * 86_400)
            let purged = await server.services.storePurger.purge()
            #expect(try await Self.count(server, "challenges") == 0, "\(purged)")
            #expect(try await Self.count(server, "consumed_tokens") == 0)
            #expect(try await Self.count(server, "phone_verifications") == 0)
            // The ended session went; the live ones (30 days) stay, and still work.
            #expect(try await Self.count(server, "sessions") == before.2 - 1)
            #expect(try await server.client.get("/user/wallet", token: user.token).status == 200)
        }
    }
}
