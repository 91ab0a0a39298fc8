import CountersignAPI
import CountersignServer
import CountersignStore
import Testing

/// Signup and login.
@Suite("Accounts")
struct AuthTests {
    @Test("signup, duplicate phone, login with the right and the wrong PIN", arguments: TestEngines.all)
    func signupAndLogin(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup(phone: "+2348012345678", pin: "2468")
            let duplicate = try await server.client.post(
                "/auth/signup", SignupRequest(phone: "+2348012345678", name: "Eve", pin: "1111"))
            #expect(duplicate.status == 409)
            #expect(duplicate.errorCode == "phone_taken")
            let login = try await server.client.post("/auth/login", LoginRequest(phone: "+2348012345678", pin: "2468"))
            #expect(login.status == 200)
            #expect(try login.decode(SessionResponse.self).userId == user.userId)
            let wrong = try await server.client.post("/auth/login", LoginRequest(phone: "+2348012345678", pin: "1357"))
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")
            let nobody = try await server.client.post("/auth/login", LoginRequest(phone: "+2348000000000", pin: "1357"))
            #expect(nobody.errorCode == "invalid_credentials")
            // The PIN is never stored in the clear.
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT pin_hash FROM users WHERE id = $1", [.text(user.userId)])?.string(
                    "pin_hash")
            }
            #expect(stored?.hasPrefix("pbkdf2-sha256$1000$") == true)
            #expect(stored?.contains("2468") == false)
        }
    }

    @Test("bad signup input is 400 and creates no user", arguments: TestEngines.all)
    func badSignup(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            for (request, code) in [
                (SignupRequest(phone: "12", name: "A", pin: "1234"), "invalid_phone"),
                (SignupRequest(phone: "08011112222", name: " ", pin: "1234"), "invalid_name"),
                (SignupRequest(phone: "08011112222", name: "A", pin: "12a4"), "invalid_pin"),
                (SignupRequest(phone: "08011112222", name: "A", pin: "1234567"), "invalid_pin"),
            ] {
                let response = try await server.client.post("/auth/signup", request)
                #expect(response.status == 400)
                #expect(response.errorCode == code)
            }
            #expect(try await LedgerAudit.count("users", server.database) == 0)
        }
    }
}
