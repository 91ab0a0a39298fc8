import CountersignCore
import CountersignStore
import Testing

@testable import CountersignServer

/// The repository contract, run against every engine: the same SQL must mean the same thing on
/// SQLite and PostgreSQL.
@Suite("Repository contract")
struct RepositoryContractTests {
    static let now: Int64 = 1_700_000_000_000

    static func makeUser(_ id: String, on database: any Database) async throws -> (wallet: String, cashback: String) {
        try await database.transaction { sql in
            _ = try await sql.users.create(
                id: id, phone: "0801\(id.count)\(abs(id.hashValue) % 1_000_000)", name: id, pinHash: "x",
                userHandle: "h-\(id)", now: now)
            try await sql.ledger.openSystemAccounts(currency: "NGN", now: now)
            return try await sql.ledger.openAccounts(userId: id, currency: "NGN", now: now)
        }
    }

    @Test(
        "a row is read by column name: a name given twice gives its last value; a missing column or another type fails",
        arguments: TestEngines.all)
    func rowByName(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let rows = try await database.read { sql in
                try await sql.query(
                    "SELECT 'first' AS id, CAST(7 AS BIGINT) AS amount, NULL AS gone, 'last' AS id FROM (SELECT 1 AS n) AS one"
                        + " UNION ALL SELECT 'again', CAST(8 AS BIGINT), NULL, 'later' FROM (SELECT 1 AS n) AS two",
                    [])
            }
            #expect(rows.count == 2)
            #expect(try rows.map { try $0.string("id") } == ["last", "later"])
            #expect(try rows.map { try $0.int("amount") } == [7, 8])
            #expect(try rows[0].optionalString("gone") == nil)
            #expect(throws: DatabaseError.self) { try rows[0].string("missing") }
            #expect(throws: DatabaseError.self) { try rows[0].int("id") }
            #expect(throws: DatabaseError.self) { try rows[0].string("amount") }
            #expect(rows[0]["missing"] == nil && rows[0]["gone"] == .null)
        }
    }

    @Test("postings move cached balances; an overdraft rolls the whole entry back", arguments: TestEngines.all)
    func ledger(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let (wallet, _) = try await Self.makeUser("u1", on: database)
            try await database.transaction { sql in
                try await sql.ledger.post(
                    .transfer(
                        kind: .funding, reference: "f1", amount: 1_000, from: SystemAccount.funding("NGN"), to: wallet),
                    now: Self.now)
            }
            await #expect(throws: LedgerError.insufficientFunds(accountId: wallet)) {
                try await database.transaction { sql in
                    try await sql.ledger.post(
                        .transfer(
                            kind: .topup, reference: "t1", amount: 1_001, from: wallet,
                            to: SystemAccount.supplierClearing("NGN")), now: Self.now)
                }
            }
            let balances = try await database.read { sql in
                (
                    try await sql.ledger.balance(accountId: wallet),
                    try await sql.ledger.balance(accountId: SystemAccount.funding("NGN")),
                    try await sql.ledger.balance(accountId: SystemAccount.supplierClearing("NGN"))
                )
            }
            #expect(balances == (1_000, -1_000, 0))
            #expect(try await LedgerAudit.count("ledger_transactions", database) == 1)
            // The CHECK constraint backs the code: a direct write below zero is refused by the engine.
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    try await sql.execute("UPDATE accounts SET balance = -1 WHERE id = $1", [.text(wallet)])
                }
            }
            try await LedgerAudit.check(database, checks: LedgerAuditCheck.bookkeeping)
        }
    }

    @Test(
        "concurrent transactions commit or roll back each on its own (SQLite batches them into one commit)",
        arguments: TestEngines.all)
    func independentTransactions(engine: DatabaseEngine) async throws {
        struct Refused: Error {}
        try await TestDatabase.with(engine) { database in
            let (wallet, _) = try await Self.makeUser("u6", on: database)
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                try await sql.ledger.post(
                                    .transfer(
                                        kind: .funding, reference: "f\(index)", amount: 10,
                                        from: SystemAccount.funding("NGN"), to: wallet), now: Self.now)
                                // Every third one fails after writing: its postings must vanish, and only its.
                                if index % 3 == 0 { throw Refused() }
                            }
                            return true
                        } catch is Refused {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            let committed = outcomes.filter { $0 }.count
            #expect(committed == 26)
            #expect(
                try await database.read { sql in try await sql.ledger.balance(accountId: wallet) }
                    == Int64(committed * 10))
            #expect(try await LedgerAudit.count("ledger_transactions", database) == Int64(committed))
            try await LedgerAudit.check(database, checks: LedgerAuditCheck.bookkeeping)
        }
    }

    @Test("unbalanced entries cannot even be built")
    func unbalanced() {
        #expect(throws: LedgerError.unbalanced) {
            try LedgerEntry(
                kind: .transfer, reference: "r",
                postings: [Posting(accountId: "a", amount: 5), Posting(accountId: "b", amount: -4)])
        }
        #expect(throws: LedgerError.zeroPosting) {
            try LedgerEntry(
                kind: .transfer, reference: "r",
                postings: [Posting(accountId: "a", amount: 0), Posting(accountId: "b", amount: 0)])
        }
        #expect(throws: LedgerError.overflow) {
            try LedgerEntry(
                kind: .transfer, reference: "r",
                postings: [Posting(accountId: "a", amount: .max), Posting(accountId: "b", amount: .max)])
        }
    }

    @Test("a challenge is consumed once, even by concurrent requests, and not after expiry", arguments: TestEngines.all)
    func challenges(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await Self.makeUser("u2", on: database)
            for (challenge, expiresAt) in [("c-live", Self.now + 60_000), ("c-old", Self.now - 1)] {
                try await database.transaction { sql in
                    try await sql.challenges.insert(
                        StoredChallenge(
                            challenge: challenge, userId: "u2", purpose: .authentication, intent: "{}",
                            intentDigest: "d", userVerification: "required", expiresAt: expiresAt), now: Self.now - 10)
                }
            }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await database.transaction { sql in
                            try await sql.challenges.consume(
                                challenge: "c-live", userId: "u2", purpose: .authentication, now: Self.now)
                                != nil
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            let expired = try await database.transaction { sql in
                try await sql.challenges.consume(
                    challenge: "c-old", userId: "u2", purpose: .authentication, now: Self.now)
            }
            #expect(expired == nil)
            let wrongPurpose = try await database.transaction { sql in
                try await sql.challenges.consume(
                    challenge: "c-live", userId: "u2", purpose: .registration, now: Self.now)
            }
            #expect(wrongPurpose == nil)
        }
    }

    @Test(
        "idempotency claims: new, in flight, replay, mismatch, looked up, abandoned and taken over",
        arguments: TestEngines.all)
    func idempotency(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await Self.makeUser("u3", on: database)
            func claim(_ key: String, _ hash: String, at now: Int64 = Self.now, linking: String? = nil) async throws
                -> IdempotencyClaim
            {
                try await database.transaction { sql in
                    try await sql.idempotency.claim(
                        userId: "u3", key: key, requestHash: hash, owner: "inst-test", now: now,
                        staleBefore: now - 300_000, linking: linking)
                }
            }
            func claimId(_ claim: IdempotencyClaim) throws -> String {
                guard case .claimed(let id) = claim else { throw TestFailure("expected a claim, got \(claim)") }
                return id
            }
            let first = try claimId(try await claim("k", "h1"))
            #expect(try await claim("k", "h1") == .inFlight)
            #expect(try await claim("k", "h2") == .mismatch)
            try await database.transaction { sql in
                try await sql.idempotency.complete(userId: "u3", key: "k", status: 200, body: "{}")
            }
            #expect(try await claim("k", "h1") == .replay(status: 200, body: "{}"))
            _ = first

            // What a request reads before it authorizes: nil while the key is free to claim.
            func lookup(_ key: String, _ hash: String) async throws -> IdempotencyClaim? {
                try await database.read { sql in
                    try await sql.idempotency.lookup(userId: "u3", key: key, requestHash: hash)
                }
            }
            #expect(try await lookup("k", "h1") == .replay(status: 200, body: "{}"))
            #expect(try await lookup("k", "h2") == .mismatch)
            #expect(try await lookup("k2", "h") == nil)

            // Abandoned before any debit: after five minutes a retry takes it over, linking it to
            // its debit in the claim's own statement.
            let dead = try claimId(try await claim("k3", "h"))
            #expect(try await claim("k3", "h", at: Self.now + 60_000) == .inFlight)
            #expect(try await lookup("k3", "h") == nil, "an unlinked claim is for a claim to judge")
            let retry = try claimId(try await claim("k3", "h", at: Self.now + 300_001, linking: "tx-retry"))
            #expect(retry != dead)
            func linked(_ key: String) async throws -> String? {
                try await database.read { sql in
                    try await sql.first(
                        "SELECT transaction_id FROM idempotency_keys WHERE user_id = 'u3' AND idempotency_key = $1",
                        [.text(key)])?.optionalString("transaction_id")
                }
            }
            #expect(try await linked("k3") == "tx-retry")
            // A new key claimed and linked at once.
            _ = try claimId(try await claim("k4", "h", linking: "tx-4"))
            #expect(try await linked("k4") == "tx-4")
            #expect(try await lookup("k4", "h") == .inFlight)

            // Linked to a debit: never taken over, however old; it waits for settlement.
            #expect(try await claim("k3", "h", at: Self.now + 3_600_000) == .inFlight)
            #expect(try await lookup("k3", "h") == .inFlight)
        }
    }

    @Test("failure counters lock at the threshold without lost increments", arguments: TestEngines.all)
    func failureCounter(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await Self.makeUser("u4", on: database)
            let locks = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await database.transaction { sql in
                            try await sql.users.recordPaymentFailure(
                                userId: "u4", threshold: 5, lockUntil: Self.now + 900_000)
                        }
                    }
                }
                return try await group.reduce(into: [Int64?]()) { $0.append($1) }
            }
            // Ten concurrent failures against a threshold of five lock exactly twice.
            #expect(locks.compactMap { $0 }.count == 2)
            let user = try await database.read { sql in try await sql.users.find(id: "u4") }
            #expect(user?.paymentLockedUntil == Self.now + 900_000)
            #expect(user?.failedPaymentAuths == 0)
        }
    }

    @Test("a credential's counter only rises", arguments: TestEngines.all)
    func signCounter(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await Self.makeUser("u5", on: database)
            let credential = StoredCredential(
                id: "cred", userId: "u5", publicKey: "pk", algorithm: -7, signCount: 5, backupEligible: false,
                backupState: false, transports: ["internal"], attestationFormat: "none", attestationVerified: true,
                flaggedAt: nil)
            try await database.transaction { sql in
                try await sql.credentials.insert(credential, aaguid: "", now: Self.now)
            }
            await #expect(throws: APIError.self) {
                try await database.transaction { sql in
                    try await sql.credentials.insert(credential, aaguid: "", now: Self.now)
                }
            }
            let results = try await database.transaction { sql in
                [
                    try await sql.credentials.recordUse(
                        id: "cred", signCount: 6, backupState: false, now: Self.now),
                    try await sql.credentials.recordUse(
                        id: "cred", signCount: 6, backupState: false, now: Self.now),
                    try await sql.credentials.recordUse(
                        id: "cred", signCount: 4, backupState: false, now: Self.now),
                    try await sql.credentials.recordUse(
                        id: "cred", signCount: 9, backupState: true, now: Self.now),
                ]
            }
            #expect(results == [true, false, false, true])
            let stored = try await database.read { sql in try await sql.credentials.find(id: "cred") }
            #expect(stored?.signCount == 9)
            #expect(stored?.transports == ["internal"])
        }
    }
}
