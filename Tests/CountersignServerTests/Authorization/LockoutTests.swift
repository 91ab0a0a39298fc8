import CountersignAPI
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// Five consecutive failed payment authentications, PIN or signature, lock payment for 15 minutes.
@Suite("Lockout")
struct LockoutTests {
    @Test("five failures lock for 15 minutes, whichever factor failed", arguments: TestEngines.all)
    func lockout(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            // Two bad signatures…
            for _ in 0..<2 {
                let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
                var body = try server.assertion(try #require(user.device), challenge: options.challenge)
                var signature = try #require(Base64URL.decode(body.response.signature))
                signature[signature.count - 1] ^= 0x01
                body.response.signature = Base64URL.encode(signature)
                let response = try await server.client.post("/biometric/auth/verify", body, token: user.token)
                #expect(response.status == 401)
            }
            // …and three bad PINs: the same message every time, the fifth locks.
            for attempt in 3...5 {
                let response = try await server.topUp(user, pin: "9999")
                if attempt < 5 {
                    #expect(response.status == 401)
                    #expect(response.errorCode == "authorization_failed")
                } else {
                    #expect(response.status == 423)
                    #expect(response.errorCode == "payment_locked")
                    #expect(response.headers.first(name: "Retry-After") == "900")
                }
            }
            // Locked: even the right PIN and a fresh challenge are refused, with the time left.
            let locked = try await server.topUp(user, pin: user.pin)
            #expect(locked.status == 423)
            #expect(try locked.decode(ErrorResponse.self).error.retryAfter == 900)
            #expect(try await server.authOptions(user).status == 423)
            // A transfer is refused before it is quoted: no gesture is asked of a locked payer.
            let payee = try await server.signup()
            let transfer = try await server.createTransfer(user, to: payee.phone, amount: 1_000)
            #expect(transfer.status == 423 && transfer.errorCode == "payment_locked", "\(transfer.text)")
            #expect(transfer.headers.first(name: "Retry-After") != nil)
            #expect(try await LedgerAudit.count("transfers", server.database) == 0)
            #expect(try await server.wallet(user).balance == 100_000)

            server.clock.advance(seconds: 15 * 60 + 1)
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
        }
    }

    @Test("a success resets the count", arguments: TestEngines.all)
    func successResets(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            for _ in 0..<4 { #expect(try await server.topUp(user, pin: "9999").status == 401) }
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
            for _ in 0..<4 { #expect(try await server.topUp(user, pin: "9999").status == 401) }
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
        }
    }
}
