import CountersignAPI
import CountersignClient
import CountersignCodec
import CountersignStore
import Testing
import WebAuthn

@testable import CountersignServer

/// `--synced-passkeys`: what the backup flags (WebAuthn §6.1.3) may say for a key to register and to pay.
@Suite("Synced passkeys")
struct SyncedPasskeyTests {
    static let synced = DeviceAuthenticator.BackupFlags(eligible: true, state: true)
    static let eligible = DeviceAuthenticator.BackupFlags(eligible: true, state: false)

    /// Registers `device` for `user` over HTTP with the given backup flags.
    static func register(
        _ server: LiveServer, _ user: TestUser, _ device: DeviceAuthenticator,
        backup: DeviceAuthenticator.BackupFlags
    ) async throws -> APIResponse {
        let options = try await RegistrationTests.options(server, user)
        return try await server.client.post(
            "/biometric/register/verify",
            device.registrationResponse(challenge: try #require(Base64URL.decode(options.challenge)), backup: backup),
            token: user.token)
    }

    /// A payment assertion over HTTP with the backup flags the key reports now.
    static func pay(
        _ server: LiveServer, _ user: TestUser, _ device: DeviceAuthenticator,
        backup: DeviceAuthenticator.BackupFlags
    ) async throws -> APIResponse {
        let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
        return try await server.client.post(
            "/biometric/auth/verify",
            device.assertionResponse(challenge: try #require(Base64URL.decode(options.challenge)), backup: backup),
            token: user.token)
    }

    struct Flags: Equatable {
        let eligible: Bool
        let state: Bool
        let flagged: Bool
    }

    /// The stored flags of the user's one key, and whether it was disabled.
    static func stored(_ server: LiveServer) async throws -> Flags {
        let row = try await #require(
            try await server.database.read { sql in
                try await sql.first("SELECT backup_eligible, backup_state, flagged_at FROM credentials")
            })
        return Flags(
            eligible: try row.bool("backup_eligible"), state: try row.bool("backup_state"),
            flagged: try row.optionalInt("flagged_at") != nil)
    }

    /// A key stored as registered before the operator chose `deny`: backup eligible, not backed up.
    static func storeEligibleKey(_ server: LiveServer, _ user: TestUser) async throws -> DeviceAuthenticator {
        let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
        let credential = StoredCredential(
            id: Base64URL.encode(device.credentialId), userId: user.userId,
            publicKey: Base64URL.encode(device.credentialPublicKeyCOSE), algorithm: -7, signCount: 0,
            backupEligible: true, backupState: false, transports: [], attestationFormat: "none",
            attestationVerified: true, flaggedAt: nil)
        try await server.database.transaction { sql in
            try await sql.credentials.insert(credential, aaguid: "", now: 1)
        }
        return device
    }

    @Test(
        "allow: a synced passkey registers, and its flip to backed up is recorded, never disabled",
        arguments: TestEngines.all)
    func allowRecordsTheFlip(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            // Options are refused for a payment the wallet cannot make.
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            #expect(try await Self.register(server, user, device, backup: Self.eligible).status == 201)
            #expect(try await Self.stored(server) == Flags(eligible: true, state: false, flagged: false))

            let paid = try await Self.pay(server, user, device, backup: Self.synced)
            #expect(paid.status == 200, "\(paid.text)")
            #expect(try await Self.stored(server) == Flags(eligible: true, state: true, flagged: false))
            // And back again: a key that stops being backed up is recorded too.
            #expect(try await Self.pay(server, user, device, backup: Self.eligible).status == 200)
            #expect(try await Self.stored(server) == Flags(eligible: true, state: false, flagged: false))
        }
    }

    @Test(
        "deny: a backup-eligible key is refused at registration; a device-bound one registers",
        arguments: TestEngines.all)
    func denyRefusesRegistration(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.passkeyPolicy.syncedPasskeys = .deny }) { server in
            let user = try await server.signup()
            let device = DeviceAuthenticator(rpId: LiveServer.rpId, origin: LiveServer.origin)
            for backup in [Self.eligible, Self.synced] {
                let refused = try await Self.register(server, user, device, backup: backup)
                #expect(refused.status == 403)
                #expect(refused.errorCode == "synced_passkey_refused")
            }
            #expect(try await LedgerAudit.count("credentials", server.database) == 0)
            #expect(try await Self.register(server, user, device, backup: .deviceBound).status == 201)
            #expect(try await Self.stored(server) == Flags(eligible: false, state: false, flagged: false))
        }
    }

    @Test(
        "deny: a key that became backed up cannot pay, is recorded, not disabled, and locks nothing",
        arguments: TestEngines.all)
    func denyRefusesTheFlip(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.passkeyPolicy.syncedPasskeys = .deny }) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            let device = try await Self.storeEligibleKey(server, user)
            #expect(try await Self.pay(server, user, device, backup: Self.eligible).status == 200)

            for _ in 0..<6 { // past the lock's threshold of five failures
                let refused = try await Self.pay(server, user, device, backup: Self.synced)
                #expect(refused.status == 403)
                #expect(refused.errorCode == "synced_passkey_refused")
            }
            #expect(try await Self.stored(server) == Flags(eligible: true, state: true, flagged: false))
            // Not locked, not disabled: once the key is device-only again it pays.
            let paid = try await Self.pay(server, user, device, backup: Self.eligible)
            #expect(paid.status == 200, "\(paid.text)")
        }
    }

    @Test("deny: a transfer signed by a backed-up key is refused and stays open", arguments: TestEngines.all)
    func denyRefusesTransfer(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.passkeyPolicy.syncedPasskeys = .deny }) { server in
            var payer = try await server.signup()
            _ = try await server.services.wallets.fund(phone: payer.phone, amount: 100_000, reference: nil)
            let payee = try await server.signup()
            let device = try await Self.storeEligibleKey(server, payer)
            payer.device = device
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            let challenge = try #require(document.challenge?.challenge)
            let refused = try await server.authorizeTransfer(
                payer, document,
                body: device.assertionResponse(
                    challenge: try #require(Base64URL.decode(challenge)), backup: Self.synced))
            #expect(refused.status == 403)
            #expect(refused.errorCode == "synced_passkey_refused")
            #expect(try await Self.stored(server) == Flags(eligible: true, state: true, flagged: false))
            let after = try await server.client.get("/transfers/\(document.id)", token: payer.token)
                .decode(TransferDocument.self)
            #expect(after.status == .authorizationRequired)
            let accepted = try await server.authorizeTransfer(
                payer, document,
                body: device.assertionResponse(
                    challenge: try #require(Base64URL.decode(challenge)), backup: Self.eligible))
            #expect(accepted.status == 200, "\(accepted.text)")
        }
    }
}
