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
            let user = try await server.signup(phone: "+2348012345678", pin: "3816")
            // A second signup on the number: its holder is warned, and the code sent matches nothing.
            let duplicate = try await server.client.post(
                "/auth/signup",
                SignupRequest(
                    verificationId: try await server.client.sdk().requestCode(phone: user.phone, purpose: .signup)
                        .verificationId, code: "123456", name: "Eve", pin: "7351"))
            #expect(duplicate.status == 401 && duplicate.errorCode == "invalid_code", "\(duplicate.text)")
            let login = try await server.client.post(
                "/auth/login", LoginRequest(phone: "+2348012345678", pin: "3816", deviceToken: user.deviceToken))
            #expect(login.status == 200)
            #expect(try login.decode(SessionResponse.self).userId == user.userId)
            let wrong = try await server.client.post(
                "/auth/login", LoginRequest(phone: "+2348012345678", pin: "5092", deviceToken: user.deviceToken))
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")
            let nobody = try await server.client.post("/auth/login", LoginRequest(phone: "+2348000000000", pin: "5092"))
            #expect(nobody.errorCode == "phone_code_required")
            // The PIN is never stored in the clear.
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT pin_hash FROM users WHERE id = $1", [.text(user.userId)])?.string(
                    "pin_hash")
            }
            #expect(stored?.hasPrefix("pbkdf2-sha256$1000$") == true)
            #expect(stored?.contains("3816") == false)
        }
    }

    @Test("bad signup input is 400 and creates no user", arguments: TestEngines.all)
    func badSignup(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let asked = try await server.client.post(
                "/auth/phone/verifications", PhoneVerificationRequest(phone: "12", purpose: .signup))
            #expect(asked.status == 400 && asked.errorCode == "invalid_phone")
            let code = try await server.code("08011112222", .signup)
            for (name, pin, error) in [
                (" ", "4827", "invalid_name"), ("A", "12a4", "invalid_pin"), ("A", "1234567", "invalid_pin"),
                ("A", "1234", "weak_pin"), ("A", "0000", "weak_pin"), ("A", "123456", "weak_pin"),
                ("A", "2580", "weak_pin"),
            ] {
                let response = try await server.client.post(
                    "/auth/signup",
                    SignupRequest(verificationId: code.verificationId, code: code.code, name: name, pin: pin))
                #expect(response.status == (error == "weak_pin" ? 422 : 400), "\(pin)")
                #expect(response.errorCode == error, "\(pin)")
            }
            #expect(try await LedgerAudit.count("users", server.database) == 0)
        }
    }
}
