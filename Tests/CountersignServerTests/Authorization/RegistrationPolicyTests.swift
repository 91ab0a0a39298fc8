import CountersignAPI
import CountersignClient
import CountersignCodec
import CountersignServer
import CountersignStore
import Testing
import WebAuthn

/// What registration accepts beyond a valid ceremony: offered algorithms only, verifiable attestation by default.
@Suite("Registration policy")
struct RegistrationPolicyTests {
    /// The device's registration for `challenge`, with its attestation object rebuilt: another statement, or its
    /// COSE key's alg replaced (the key stays P-256, so only the algorithm check can refuse it).
    static func body(
        _ device: DeviceAuthenticator, challenge: String, fmt: String = "none", statement: CBORValue = .map([]),
        alg: Int64? = nil
    ) throws -> RegistrationResponseJSON {
        let made = device.makeRegistration(challenge: try #require(Base64URL.decode(challenge)))
        var authData = try #require(try CBORDecoder.decode(made.attestationObject)[text: "authData"]?.bytesValue)
        if let alg {
            let keyStart = 37 + 16 + 2 + device.credentialId.count
            var key = try #require(try CBORDecoder.decode(Array(authData[keyStart...])).mapValue)
            let index = try #require(key.firstIndex { $0.key == .int(3) })
            key[index].value = .int(alg)
            authData = Array(authData[0..<keyStart]) + CBOREncoder.encode(.map(key))
        }
        let object = CBOREncoder.encode(
            .map([
                CBORPair(.text("fmt"), .text(fmt)), CBORPair(.text("attStmt"), statement),
                CBORPair(.text("authData"), .bytes(authData)),
            ]))
        return RegistrationResponseJSON(
            id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
            response: .init(
                clientDataJSON: Base64URL.encode(made.clientDataJSON), attestationObject: Base64URL.encode(object))
        )
    }

    static let garbageSafetyNet = CBORValue.map([
        CBORPair(.text("ver"), .text("1")), CBORPair(.text("response"), .bytes([0x6A, 0x75, 0x6E, 0x6B])),
    ])

    @Test(
        "a credential whose algorithm was not in pubKeyCredParams is refused with unexpected_algorithm",
        arguments: TestEngines.all)
    func algorithmNotOffered(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            var options = try await RegistrationTests.options(server, user)
            #expect(!options.pubKeyCredParams.map(\.alg).contains(COSEAlgorithm.esp256.rawValue))
            let refused = try await server.client.post(
                "/biometric/register/verify",
                try Self.body(device, challenge: options.challenge, alg: Int64(COSEAlgorithm.esp256.rawValue)),
                token: user.token)
            #expect(refused.status == 401)
            #expect(refused.errorCode == "unexpected_algorithm")
            #expect(try await LedgerAudit.count("credentials", server.database) == 0)

            options = try await RegistrationTests.options(server, user)
            let accepted = try await server.client.post(
                "/biometric/register/verify", try Self.body(device, challenge: options.challenge), token: user.token)
            #expect(accepted.status == 201)
        }
    }

    @Test(
        "an unverifiable attestation format (garbage android-safetynet) is refused by default",
        arguments: TestEngines.all)
    func unverifiableRefusedByDefault(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let response = try await Self.registerGarbageSafetyNet(server)
            #expect(response.status == 401)
            #expect(response.errorCode == "unsupported_attestation_format")
            #expect(try await LedgerAudit.count("credentials", server.database) == 0)
        }
    }

    @Test("with --accept-unverified-attestation it is stored as unverified", arguments: TestEngines.all)
    func unverifiableAcceptedWhenOptedIn(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.acceptUnverifiedAttestation = true }) { server in
            let response = try await Self.registerGarbageSafetyNet(server)
            #expect(response.status == 201)
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT attestation_format, attestation_verified FROM credentials")
            }
            #expect(try stored?.string("attestation_format") == "android-safetynet")
            #expect(try stored?.bool("attestation_verified") == false)
        }
    }

    /// A new user's registration with an `android-safetynet` statement of garbage.
    static func registerGarbageSafetyNet(_ server: LiveServer) async throws -> APIResponse {
        let user = try await server.signup()
        let options = try await RegistrationTests.options(server, user)
        let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
        return try await server.client.post(
            "/biometric/register/verify",
            try Self.body(
                device, challenge: options.challenge, fmt: "android-safetynet", statement: Self.garbageSafetyNet),
            token: user.token)
    }
}
