import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Sessions end when the user says so (here or everywhere), when idle, and take their open event
/// streams with them.
@Suite("Sessions")
struct SessionTests {
    @Test("log out everywhere ends every session of the user, and only theirs", arguments: TestEngines.all)
    func logoutEverywhere(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let bystander = try await server.signup()
            let second = try await server.client.post(
                "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: user.deviceToken)
            )
            .decode(SessionResponse.self)
            #expect(try await server.client.get("/user/wallet", token: second.sessionToken).status == 200)

            #expect(try await server.client.post("/auth/logout-all", token: user.token).status == 204)
            #expect(try await server.client.get("/user/wallet", token: user.token).status == 401)
            #expect(try await server.client.get("/user/wallet", token: second.sessionToken).status == 401)
            #expect(try await server.client.get("/user/wallet", token: bystander.token).status == 200)
        }
    }

    @Test("a session unused past the idle limit ends; use keeps it alive", arguments: TestEngines.all)
    func idleExpiry(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.sessionIdleSeconds = 600 }) { server in
            let busy = try await server.signup()
            let idle = try await server.signup()
            for _ in 0..<3 {
                server.clock.advance(seconds: 300)
                #expect(try await server.client.get("/user/wallet", token: busy.token).status == 200)
            }
            // 900 s since `idle` was last used; `busy` was used 0 s ago.
            #expect(try await server.client.get("/user/wallet", token: idle.token).status == 401)
            server.clock.advance(seconds: 599)
            #expect(try await server.client.get("/user/wallet", token: busy.token).status == 200)
            server.clock.advance(seconds: 601)
            #expect(try await server.client.get("/user/wallet", token: busy.token).status == 401)
        }
    }

    @Test("an open event stream ends when its session logs out", arguments: TestEngines.all)
    func streamEndsAtLogout(engine: DatabaseEngine) async throws {
        // A long fallback: the stream must end because it was told, not because it re-read.
        try await LiveServer.run(engine, configure: { $0.streamFallbackSeconds = 60 }) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup(name: "Bola")
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            #expect(document.status == .authorizationRequired)
            let stream = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", token: payer.token)
            defer { stream.close() }
            #expect(stream.status == 200)
            _ = await stream.wait { !$0.isEmpty }
            #expect(try await server.client.post("/auth/logout", token: payer.token).status == 204)
            #expect(await stream.waitForEnd(timeout: .seconds(5)), "the stream outlived its session")
        }
    }
}
