import CountersignAPI
import CountersignClient
import CountersignCore
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// WebAuthn registration over HTTP.
@Suite("Registration")
struct RegistrationTests {
    static func options(_ server: LiveServer, _ user: TestUser) async throws -> RegistrationOptionsResponse {
        try await server.client.post(
            "/biometric/register/options", RegistrationOptionsRequest(pin: user.pin), token: user.token
        ).decode(RegistrationOptionsResponse.self)
    }

    static func body(
        _ device: DeviceAuthenticator, challenge: String, attestation: DeviceAuthenticator.Attestation = .none
    ) throws -> RegistrationResponseJSON {
        let made = device.makeRegistration(
            challenge: try #require(Base64URL.decode(challenge)), attestation: attestation)
        return RegistrationResponseJSON(
            id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
            response: .init(
                clientDataJSON: Base64URL.encode(made.clientDataJSON),
                attestationObject: Base64URL.encode(made.attestationObject))
        )
    }

    @Test(
        "options, packed self attestation, exclusion of registered keys, single-use challenge",
        arguments: TestEngines.all)
    func register(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let options = try await Self.options(server, user)
            #expect(options.rp.id == LiveServer.rpId)
            #expect(options.user.name == PhoneNumber(user.phone)?.value, "the E.164 form")
            #expect(options.user.id != user.userId, "the user handle is random, not an internal id")
            #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -35, -36, -257])
            #expect(options.authenticatorSelection.userVerification == "required")
            #expect(options.excludeCredentials.isEmpty)

            let device = DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin)
            let body = try Self.body(device, challenge: options.challenge, attestation: .packed)
            let response = try await server.client.post("/biometric/register/verify", body, token: user.token)
            #expect(response.status == 201)
            #expect(
                try response.decode(RegistrationVerifyResponse.self).credentialId
                    == Base64URL.encode(device.credentialId))
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT attestation_format, attestation_verified FROM credentials")
            }
            #expect(try stored?.string("attestation_format") == "packed")
            #expect(try stored?.bool("attestation_verified") == true)

            // The same response again: its challenge is spent.
            let replay = try await server.client.post("/biometric/register/verify", body, token: user.token)
            #expect(replay.status == 401)
            #expect(replay.errorCode == "invalid_challenge")

            // The same key under a new challenge: already registered.
            let again = try await Self.options(server, user)
            #expect(again.excludeCredentials.map(\.id) == [Base64URL.encode(device.credentialId)])
            let duplicate = try await server.client.post(
                "/biometric/register/verify", try Self.body(device, challenge: again.challenge), token: user.token)
            #expect(duplicate.status == 409)
            #expect(duplicate.errorCode == "credential_exists")
        }
    }

    @Test("registration from a foreign origin, or for another relying party, is refused", arguments: TestEngines.all)
    func foreignOrigin(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            var options = try await Self.options(server, user)
            var response = try await server.client.post(
                "/biometric/register/verify",
                try Self.body(
                    DeviceAuthenticator(rpId: options.rp.id, origin: "https://evil.example"),
                    challenge: options.challenge), token: user.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "origin_not_allowed")
            options = try await Self.options(server, user)
            response = try await server.client.post(
                "/biometric/register/verify",
                try Self.body(
                    DeviceAuthenticator(rpId: "evil.example", origin: LiveServer.origin), challenge: options.challenge),
                token: user.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "rp_id_hash_mismatch")
            #expect(try await LedgerAudit.count("credentials", server.database) == 0)
        }
    }

    @Test("another user's challenge cannot register a key", arguments: TestEngines.all)
    func otherUsersChallenge(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let alice = try await server.signup()
            let mallory = try await server.signup()
            let options = try await Self.options(server, alice)
            let response = try await server.client.post(
                "/biometric/register/verify",
                try Self.body(
                    DeviceAuthenticator(rpId: options.rp.id, origin: LiveServer.origin), challenge: options.challenge),
                token: mallory.token)
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_challenge")
        }
    }
}
