import CountersignAPI
import CountersignClient
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// A stolen session must not be enough to move the money: adding a device key needs the PIN or a
/// signature from a key the user already has, and the user can see and revoke their keys.
@Suite("Step-up and device keys")
struct StepUpTests {
    @Test("with only the victim's session, no key can be added", arguments: TestEngines.all)
    func stolenSession(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let victim = try await server.fundedUser()
            let bare = try await server.client.post("/biometric/register/options", token: victim.token)
            #expect(bare.status == 401 && bare.errorCode == "step_up_required", "\(bare.text)")
            let empty = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(), token: victim.token)
            #expect(empty.status == 401 && empty.errorCode == "step_up_required")
            let guessed = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: "0000"), token: victim.token)
            #expect(guessed.status == 401 && guessed.errorCode == "step_up_failed")
            let both = try await server.client.post(
                "/biometric/register/options",
                RegistrationOptionsRequest(pin: victim.pin, assertion: try Self.stepUpAssertion(server, victim)),
                token: victim.token)
            #expect(both.status == 400 && both.errorCode == "ambiguous_step_up")
            #expect(try await LedgerAudit.count("credentials", server.database) == 1, "only the victim's own key")
            let attempts = try await server.database.read { sql in
                try await sql.first("SELECT failed_pin_attempts FROM users WHERE id = $1", [.text(victim.userId)])?.int(
                    "failed_pin_attempts")
            }
            #expect(attempts == 1, "the wrong PIN counted towards the lockout")
        }
    }

    @Test(
        "an assertion from an existing key steps up; a payment's cannot, nor a step-up's pay",
        arguments: TestEngines.all)
    func assertionStepUp(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let stepUp = try await server.client.post(
                "/biometric/register/options",
                RegistrationOptionsRequest(assertion: try Self.stepUpAssertion(server, user)), token: user.token)
            #expect(stepUp.status == 200, "\(stepUp.text)")

            // A payment challenge's assertion is not a step-up…
            let payment = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let paymentAssertion = try server.assertion(try #require(user.device), challenge: payment.challenge)
            let misused = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(assertion: paymentAssertion),
                token: user.token)
            #expect(misused.status == 401 && misused.errorCode == "invalid_challenge", "\(misused.text)")
            // …and a step-up challenge's assertion earns no payment token.
            let options = try await server.client.post("/biometric/step-up/options", token: user.token).decode(
                StepUpOptionsResponse.self)
            let verify = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(try #require(user.device), challenge: options.challenge),
                token: user.token)
            #expect(verify.status == 401 && verify.errorCode == "invalid_challenge", "\(verify.text)")
        }
    }

    @Test("one step-up assertion sent 20 times at once opens one registration", arguments: TestEngines.all)
    func stepUpReplay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let body = RegistrationOptionsRequest(assertion: try await Self.stepUpAssertion(server, user))
            let statuses = try await PinLockoutTests.parallel(20) {
                try await server.client.post("/biometric/register/options", body, token: user.token)
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses.sorted())")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 401 }, "\(statuses.sorted())")
        }
    }

    @Test(
        "keys are listed and revoked; a revoked key authorizes nothing; another user's id is 404",
        arguments: TestEngines.all)
    func listAndRevoke(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let other = try await server.fundedUser()
            let device = try #require(user.device)
            let listed = try await server.client.get("/biometric/credentials", token: user.token).decode(
                CredentialList.self)
            #expect(listed.credentials.map(\.id) == [Base64URL.encode(device.credentialId)])
            #expect(listed.credentials.first?.algorithm == -7 && listed.credentials.first?.flagged == false)

            let otherId = Base64URL.encode(try #require(other.device).credentialId)
            let foreign = try await server.client.send(.DELETE, "/biometric/credentials/\(otherId)", token: user.token)
            #expect(foreign.status == 404 && foreign.errorCode == "unknown_credential")
            #expect(
                try await server.client.get("/biometric/credentials", token: other.token).decode(CredentialList.self)
                    .credentials.count == 1)

            // Options issued before the revocation: the assertion that answers them is refused after it.
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let revoked = try await server.client.send(
                .DELETE, "/biometric/credentials/\(Base64URL.encode(device.credentialId))", token: user.token)
            #expect(revoked.status == 204)
            let late = try await server.client.post(
                "/biometric/auth/verify", try server.assertion(device, challenge: options.challenge), token: user.token)
            #expect(late.status == 401 && late.errorCode == "unknown_credential", "\(late.text)")
            #expect(
                try await server.client.get("/biometric/credentials", token: user.token).decode(CredentialList.self)
                    .credentials.isEmpty)
            #expect(try await server.authOptions(user).errorCode == "no_registered_credential")
            let again = try await server.client.send(
                .DELETE, "/biometric/credentials/\(Base64URL.encode(device.credentialId))", token: user.token)
            #expect(again.status == 404)
            #expect(try await server.wallet(user).balance == 100_000)
        }
    }

    /// An assertion by the user's key over a fresh step-up challenge.
    static func stepUpAssertion(_ server: LiveServer, _ user: TestUser) async throws -> AuthenticationResponseJSON {
        let response = try await server.client.post("/biometric/step-up/options", token: user.token)
        try #require(response.status == 200, "step-up options: \(response.text)")
        let options = try response.decode(StepUpOptionsResponse.self)
        return try server.assertion(try #require(user.device), challenge: options.challenge)
    }
}
