import CountersignAPI
import CountersignCore
import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// A token's or an assertion's top-up claims its idempotency key in the payment's transaction,
/// before the factor is spent; on PostgreSQL the claim is the first part of the spending statement
/// itself, and where it is not made that statement writes nothing and the claim's own statement
/// says why (or takes over a claim whose request died).
@Suite("Claim with the spend")
struct ClaimWithSpendTests {
    static let now = RepositoryContractTests.now

    @Test(
        "the claim rides in the token's spend: a new key is claimed with it, a taken one leaves everything unwritten",
        arguments: TestEngines.all.filter { $0 == .postgres })
    func statement(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let (wallet, cashback) = try await RepositoryContractTests.makeUser("cs1", on: database)
            let credential = StoredCredential(
                id: "cred-cs1", userId: "cs1", publicKey: "pk", algorithm: -7, signCount: 0, backupEligible: false,
                backupState: false, transports: [], attestationFormat: "none", attestationVerified: true,
                flaggedAt: nil)
            try await database.transaction { sql in
                try await sql.credentials.insert(credential, aaguid: "", now: Self.now)
                try await sql.execute(
                    "INSERT INTO pin_allowances (user_id, currency, payments, total) VALUES ('cs1', 'NGN', 1, 100)", [])
                _ = try await sql.idempotency.claim(
                    userId: "cs1", key: "taken", requestHash: "h", owner: "inst-peer", now: Self.now,
                    staleBefore: 0)
            }
            func spend(key: String, jti: String) async throws -> (claimed: Bool, spend: TokenSpend) {
                try await database.transaction { sql in
                    try await sql.consumedTokens.spendPayment(
                        jti: jti, userId: "cs1", credentialId: credential.id, expiresAt: Self.now + 60_000,
                        now: Self.now, renewingPinAllowance: true, locking: [wallet, cashback],
                        claiming: LinkedClaim(
                            userId: "cs1", ticket: IdempotencyTicket(key: key, requestHash: "h", owner: "inst-me"),
                            transactionId: "tx-\(key)", now: Self.now))
                }
            }
            func written() async throws -> (tokens: [String], allowances: Int64, keys: [String]) {
                try await database.read { sql in
                    (
                        try await sql.query("SELECT jti FROM consumed_tokens ORDER BY jti", []).map {
                            try $0.string("jti")
                        },
                        try await sql.first("SELECT count(*) AS n FROM pin_allowances", [])?.int("n") ?? -1,
                        try await sql.query(
                            "SELECT idempotency_key, owner_instance, transaction_id FROM idempotency_keys ORDER BY idempotency_key",
                            []
                        ).map {
                            "\(try $0.string("idempotency_key"))/\(try $0.string("owner_instance"))/\(try $0.optionalString("transaction_id") ?? "-")"
                        }
                    )
                }
            }

            let refused = try await spend(key: "taken", jti: "jti-1")
            #expect(!refused.claimed)
            let untouched = try await written()
            #expect(untouched.tokens.isEmpty, "the token is not spent under a key another request holds")
            #expect(untouched.allowances == 1, "nor the PIN allowance renewed")
            #expect(untouched.keys == ["taken/inst-peer/-"])

            let paid = try await spend(key: "new", jti: "jti-1")
            #expect(paid.claimed && paid.spend == .spent)
            let after = try await written()
            #expect(after.tokens == ["jti-1"])
            #expect(after.allowances == 0)
            #expect(after.keys == ["new/inst-me/tx-new", "taken/inst-peer/-"], "claimed and linked")

            // The token spent: a second payment with it under another new key is refused, its key
            // claimed only in the transaction that then rolls back.
            #expect(try await spend(key: "other", jti: "jti-1") == (true, .replayed))
        }
    }

    @Test(
        "through HTTP: under a live request's key a token and an assertion stay unspent; under a dead one's they pay once",
        arguments: TestEngines.all)
    func http(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let database = server.database
            let now = server.clock.wallClock.nowMillis()
            let hash = try await ClaimRecoveryTests.topUpHash(server, user)
            try await database.transaction { sql in
                try await sql.serverInstances.renew(
                    ServerInstanceRecord(
                        id: "inst-peer", pid: Int64(getppid()), pidNamespace: ServerInstance.currentPIDNamespace,
                        startedAt: now, leaseExpiresAt: now + InstanceLease.leaseMillis))
                for (key, owner) in [("live", "inst-peer"), ("dead", "inst-gone"), ("dead-2", "inst-gone")] {
                    _ = try await sql.idempotency.claim(
                        userId: user.userId, key: key, requestHash: hash, owner: owner, now: now,
                        staleBefore: now - 300_000)
                }
            }
            func consumedTokens() async throws -> Int64 {
                try await database.read { sql in
                    try await sql.first(
                        "SELECT count(*) AS n FROM consumed_tokens WHERE user_id = $1", [.text(user.userId)])?.int("n")
                        ?? -1
                }
            }
            #expect(try await server.wallet(user).balance == 9_500)

            let token = try await server.authorize(user)
            let busy = try await server.topUp(user, token: token, idempotencyKey: "live")
            #expect(busy.status == 409, "\(busy.text)")
            #expect(try await consumedTokens() == 0, "the token was not spent")
            let taken = try await server.topUp(user, token: token, idempotencyKey: "dead")
            #expect(taken.status == 200, "\(taken.text)")
            #expect(try await consumedTokens() == 1)
            #expect(try await server.wallet(user).balance == 9_000)
            let spent = try await server.topUp(user, token: token, idempotencyKey: "fresh")
            #expect(spent.errorCode == ErrorCode.tokenReplayed.rawValue, "\(spent.text)")

            let assertion = try await server.signedAssertion(user)
            #expect(try await server.topUp(user, assertion: assertion, idempotencyKey: "live").status == 409)
            let paid = try await server.topUp(user, assertion: assertion, idempotencyKey: "dead-2")
            #expect(paid.status == 200, "the challenge was left open: \(paid.text)")
            #expect(try await server.wallet(user).balance == 8_500)
            let owners = try await database.read { sql in
                try await sql.query(
                    "SELECT idempotency_key, owner_instance FROM idempotency_keys WHERE user_id = $1 AND idempotency_key IN ('live', 'dead', 'dead-2') ORDER BY idempotency_key",
                    [.text(user.userId)]
                ).map { "\(try $0.string("idempotency_key"))/\(try $0.string("owner_instance"))" }
            }
            let me = server.services.topUps.instance.id
            #expect(owners == ["dead/\(me)", "dead-2/\(me)", "live/inst-peer"], "the dead claims taken over")
            try await LedgerAudit.check(database)
        }
    }
}
