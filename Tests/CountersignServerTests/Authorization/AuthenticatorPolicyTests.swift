import CountersignAPI
import CountersignClient
import CountersignCodec
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Registration against the imported FIDO metadata and the operator's model lists: only an AAGUID
/// whose attestation chains to the metadata's roots for it counts as a fact.
@Suite("Authenticator policy")
struct AuthenticatorPolicyTests {
    /// An authenticator vendor's attestation PKI: a root the metadata lists, an intermediate, and
    /// the attestation leaf certifying one AAGUID.
    struct Vendor {
        let root: TestIdentity
        let intermediate: TestIdentity

        init(_ name: String) throws {
            root = try TestIdentity.root("\(name) Attestation Root")
            intermediate = try root.issue("\(name) Attestation CA", ca: true)
        }

        func attestation(for aaguid: UUID) throws -> DeviceAuthenticator.AttestationCertificate {
            let leaf = try intermediate.issue(
                "\(aaguid) attestation", ca: false, aaguid: AuthenticatorPolicyTests.bytes(aaguid))
            return .init(privateKey: leaf.key, chain: [leaf.der, intermediate.der])
        }
    }

    static let revoked = UUID(uuidString: "a6a1f0d2-0000-4000-8000-00000000000a")!
    static let certified = UUID(uuidString: "b7b2e1c3-0000-4000-8000-00000000000b")!
    static let unlisted = UUID(uuidString: "c8c3f2d4-0000-4000-8000-00000000000c")!

    static func bytes(_ uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid, Array.init) }

    /// Imports metadata in which `revoked` is REVOKED and `certified` is FIDO_CERTIFIED, both
    /// anchored at `vendor`'s root.
    static func importMetadata(_ server: LiveServer, vendor: Vendor) async throws {
        let signer = try MetadataImportTests.Signer()
        let roots = [vendor.root.der]
        let payload = TestMetadataBLOB.payload(
            nextUpdate: TestMetadataBLOB.date(days: 30),
            entries: [
                .init(
                    aaguid: revoked.uuidString.lowercased(),
                    statuses: [("FIDO_CERTIFIED", "2023-01-01"), ("REVOKED", "2024-06-01")], roots: roots),
                .init(aaguid: certified.uuidString.lowercased(), roots: roots),
            ])
        _ = try await MetadataImport.run(
            jwt: try signer.blob(payload), rootPEM: signer.root.pem, database: server.database, now: Date())
    }

    /// Registers a new user's new key with `aaguid` and the given attestation.
    static func register(
        _ server: LiveServer, aaguid: UUID, attestation: DeviceAuthenticator.Attestation = .packed,
        certificate: DeviceAuthenticator.AttestationCertificate? = nil
    ) async throws -> APIResponse {
        let user = try await server.signup()
        let options = try await RegistrationTests.options(server, user)
        let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
        return try await server.client.post(
            "/biometric/register/verify",
            device.registrationResponse(
                challenge: try #require(Base64URL.decode(options.challenge)), attestation: attestation,
                aaguid: Self.bytes(aaguid), certificate: certificate),
            token: user.token)
    }

    @Test(
        "metadata: a revoked model is refused, a chain to another root is refused, an anchored one registers",
        arguments: TestEngines.all)
    func metadata(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let vendor = try Vendor("Good")
            let impostor = try Vendor("Impostor")
            // Before any import nothing is known: a revoked model's key registers.
            #expect(
                try await Self.register(
                    server, aaguid: Self.revoked, certificate: vendor.attestation(for: Self.revoked)
                ).status == 201)
            try await Self.importMetadata(server, vendor: vendor)

            for certificate in [try vendor.attestation(for: Self.revoked), nil] {
                let refused = try await Self.register(server, aaguid: Self.revoked, certificate: certificate)
                #expect(refused.status == 403)
                #expect(refused.errorCode == "authenticator_compromised", "\(refused.text)")
            }
            let untrusted = try await Self.register(
                server, aaguid: Self.certified, certificate: impostor.attestation(for: Self.certified))
            #expect(untrusted.status == 403)
            #expect(untrusted.errorCode == "attestation_untrusted", "\(untrusted.text)")
            let anchored = try await Self.register(
                server, aaguid: Self.certified, certificate: vendor.attestation(for: Self.certified))
            #expect(anchored.status == 201, "\(anchored.text)")
            // Unknown to the metadata: nothing to anchor it, so it is a claim and registers.
            #expect(
                try await Self.register(
                    server, aaguid: Self.unlisted, certificate: impostor.attestation(for: Self.unlisted)
                ).status == 201)
        }
    }

    @Test("--authenticator-allow: only attested, listed models register", arguments: TestEngines.all)
    func allowList(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.passkeyPolicy.authenticatorAllow = [Self.certified] }) {
            server in
            let vendor = try Vendor("Good")
            try await Self.importMetadata(server, vendor: vendor)
            let attested = try await Self.register(
                server, aaguid: Self.certified, certificate: vendor.attestation(for: Self.certified))
            #expect(attested.status == 201, "\(attested.text)")
            // The same AAGUID only claimed (self attestation, or none) is refused.
            for attestation in [DeviceAuthenticator.Attestation.packed, .none] {
                let claimed = try await Self.register(server, aaguid: Self.certified, attestation: attestation)
                #expect(claimed.status == 403)
                #expect(claimed.errorCode == "authenticator_not_allowed")
            }
            // A model with a certificate but no metadata to anchor it: refused as a claim.
            let unanchored = try await Self.register(
                server, aaguid: Self.unlisted, certificate: vendor.attestation(for: Self.unlisted))
            #expect(unanchored.status == 403)
            #expect(unanchored.errorCode == "authenticator_not_allowed")
        }
    }

    @Test("--authenticator-deny: an attested listed model is refused, a mere claim is not", arguments: TestEngines.all)
    func denyList(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.passkeyPolicy.authenticatorDeny = [Self.certified] }) {
            server in
            let vendor = try Vendor("Good")
            try await Self.importMetadata(server, vendor: vendor)
            let attested = try await Self.register(
                server, aaguid: Self.certified, certificate: vendor.attestation(for: Self.certified))
            #expect(attested.status == 403)
            #expect(attested.errorCode == "authenticator_not_allowed")
            #expect(try await Self.register(server, aaguid: Self.certified, attestation: .none).status == 201)
        }
    }
}
