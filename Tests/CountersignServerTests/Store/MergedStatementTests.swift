import CountersignCore
import CountersignStore
import Testing

@testable import CountersignServer

/// Statements merged so that a request makes fewer round trips to PostgreSQL: each must mean, on
/// both engines, what the statements it replaced meant.
@Suite("Merged statements")
struct MergedStatementTests {
    static let now = RepositoryContractTests.now

    @Test(
        "an entry moving one user account (one statement on PostgreSQL) moves it, writes every posting, and refuses an overdraft",
        arguments: TestEngines.all)
    func oneAccountEntry(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let (wallet, cashback) = try await RepositoryContractTests.makeUser("m1", on: database)
            let clearing = SystemAccount.supplierClearing("NGN")
            try await database.transaction { sql in
                try await sql.ledger.post(
                    .transfer(
                        kind: .funding, reference: "f1", amount: 1_000, from: SystemAccount.funding("NGN"), to: wallet),
                    now: Self.now)
                // Only system accounts: no balance to guard, the entry is still written.
                try await sql.ledger.post(
                    .transfer(
                        kind: .cashback, reference: "c0", amount: 5, from: SystemAccount.cashbackExpense("NGN"),
                        to: clearing), now: Self.now)
            }
            await #expect(throws: LedgerError.insufficientFunds(accountId: cashback)) {
                try await database.transaction { sql in
                    try await sql.ledger.post(
                        .transfer(kind: .topup, reference: "t0", amount: 1, from: cashback, to: clearing), now: Self.now
                    )
                }
            }
            // Twenty debits of 100 at once from 1,000: exactly ten go through.
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                try await sql.ledger.post(
                                    .transfer(
                                        kind: .topup, reference: "t\(index + 1)", amount: 100, from: wallet,
                                        to: clearing),
                                    now: Self.now)
                            }
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 10)
            let (walletBalance, clearingBalance) = try await database.read { sql in
                (try await sql.ledger.balance(accountId: wallet), try await sql.ledger.balance(accountId: clearing))
            }
            let entries = try await LedgerAudit.count("ledger_transactions", database)
            let postings = try await LedgerAudit.count("postings", database)
            #expect(walletBalance == 0)
            #expect(clearingBalance == 1_005)
            #expect(entries == 12)
            #expect(postings == 24)
            try await LedgerAudit.check(database, checks: LedgerAuditCheck.bookkeeping)
        }
    }

    @Test("a single statement commits on its own; a second one is refused before it runs", arguments: TestEngines.all)
    func single(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser("m2", on: database)
            try await database.single { sql in
                try await sql.limits.assignTier(userId: "m2", tier: "basic", now: Self.now)
            }
            var refused = false
            do {
                try await database.single { sql in
                    try await sql.limits.assignTier(userId: "m2", tier: "premium", now: Self.now)
                    try await sql.execute("DELETE FROM user_tiers")
                }
            } catch DatabaseError.notSingle {
                refused = true
            }
            #expect(refused)
            let tiers = try await database.read { sql in
                try await sql.query("SELECT tier FROM user_tiers WHERE user_id = 'm2'", []).count
            }
            #expect(tiers == 1, "the second statement never ran")
        }
    }

    @Test("a session is read with its user's row, or without it; an ended one is not found", arguments: TestEngines.all)
    func sessionWithUser(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser("m3", on: database)
            try await database.transaction { sql in
                try await sql.sessions.create(
                    tokenHash: "hash-m3", userId: "m3", origin: SessionOrigin(proof: "device", deviceId: "dev-1"),
                    now: Self.now, expiresAt: Self.now + 3_600_000)
            }
            let (session, user) = try await database.read { sql in
                (
                    try await sql.sessions.find(tokenHash: "hash-m3", now: Self.now + 1, idleBefore: Self.now - 1),
                    try await sql.users.find(id: "m3")
                )
            }
            let found = try #require(session)
            #expect(found.userId == "m3")
            #expect(found.proof == "device")
            #expect(found.deviceId == "dev-1")
            #expect(found.createdAt == Self.now)
            #expect(found.user == user)
            #expect(found.user("m3") == user)
            #expect(found.user("someone-else") == nil)
            // Only whose session it is: the same session, without the user's row.
            let bare = try await database.read { sql in
                try await sql.sessions.find(
                    tokenHash: "hash-m3", now: Self.now + 1, idleBefore: Self.now - 1, withUser: false)
            }
            var expected = found
            expected.user = nil
            #expect(bare == expected)
            try await database.transaction { sql in try await sql.sessions.revoke(tokenHash: "hash-m3", now: Self.now) }
            let ended = try await database.read { sql in
                try await sql.sessions.find(tokenHash: "hash-m3", now: Self.now + 1, idleBefore: Self.now - 1)
            }
            #expect(ended == nil)
        }
    }

    @Test(
        "the limits snapshot reads the tier, the user's own limits, the PIN allowance used and both windows together",
        arguments: TestEngines.all)
    func limitsSnapshot(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser("m4", on: database)
            let windows = (since: Self.now - 30 * 86_400_000, alsoSince: Self.now - 86_400_000)
            let empty = try await database.read { sql in
                try await sql.limits.snapshot(userId: "m4", currency: "NGN", windows: windows)
            }
            #expect(empty.tier == nil)
            #expect(empty.own.isEmpty)
            #expect(empty.paidOut?.total == 0 && empty.paidOut?.recent == 0)
            #expect(empty.pinUsed == (0, 0))
            try await database.transaction { sql in
                try await sql.limits.assignTier(userId: "m4", tier: "basic", now: Self.now)
                _ = try await sql.limits.spendPinAllowance(
                    userId: "m4", currency: "NGN", amount: 150, maxPayments: 5, cumulativeAmount: 1_000)
                try await sql.limits.set(
                    userId: "m4", currency: "NGN", kind: .daily, amount: 5_000, pending: (9_000, Self.now + 1),
                    now: Self.now)
                try await sql.limits.set(
                    userId: "m4", currency: "NGN", kind: .perPayment, amount: 2_000, pending: nil, now: Self.now)
                try await sql.limits.set(
                    userId: "m4", currency: "USD", kind: .daily, amount: 1, pending: nil, now: Self.now)
                for (id, amount, age, status) in [
                    ("w1", 300, Int64(3_600_000), "completed"), ("w2", 200, 10 * 86_400_000, "completed"),
                    ("w3", 700, 3_600_000, "failed"), ("w4", 900, 40 * 86_400_000, "completed"),
                ] {
                    try await sql.execute(
                        """
                        INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, created_at, updated_at)
                        VALUES ($1, 'm4', 'topup', $2, $3, 'NGN', $4, $4)
                        """, [.text(id), .text(status), .integer(Int64(amount)), .integer(Self.now - age)])
                }
            }
            let (full, withoutSums) = try await database.read { sql in
                (
                    try await sql.limits.snapshot(userId: "m4", currency: "NGN", windows: windows),
                    try await sql.limits.snapshot(userId: "m4", currency: "NGN", windows: nil)
                )
            }
            #expect(full.tier == "basic")
            let own = full.own.sorted { $0.kind.rawValue < $1.kind.rawValue }
            #expect(own.map(\.kind) == [.daily, .perPayment])
            #expect(own.map(\.amount) == [5_000, 2_000])
            #expect(own.first?.pending?.amount == 9_000)
            #expect(full.paidOut?.total == 500 && full.paidOut?.recent == 300)
            #expect(full.pinUsed == (1, 150))
            #expect(withoutSums.tier == "basic" && withoutSums.own.count == 2 && withoutSums.paidOut == nil)
            #expect(full.credentials == nil, "not asked for")

            // With the credentials: each listed once, in `list`'s order, and each limit once, however
            // many rows the join gives; a revoked credential is not among them.
            try await database.transaction { sql in
                for (id, created) in [("key-b", Self.now + 2), ("key-a", Self.now + 2), ("key-c", Self.now + 1)] {
                    try await sql.credentials.insert(
                        StoredCredential(
                            id: id, userId: "m4", publicKey: "pk-\(id)", algorithm: -7, signCount: 3,
                            backupEligible: true, backupState: false, transports: ["internal", "hybrid"],
                            attestationFormat: "none", attestationVerified: false, flaggedAt: nil),
                        aaguid: "", now: created)
                }
                _ = try await sql.credentials.revoke(id: "key-c", userId: "m4", now: Self.now + 3)
                try await sql.credentials.flag(id: "key-a", reason: "test", now: Self.now + 4)
            }
            let (joined, listed) = try await database.read { sql in
                (
                    try await sql.limits.snapshot(
                        userId: "m4", currency: "NGN", windows: windows, withCredentials: true),
                    try await sql.credentials.list(userId: "m4")
                )
            }
            #expect(listed.map(\.id) == ["key-a", "key-b"])
            #expect(joined.credentials == listed)
            #expect(joined.own.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.daily, .perPayment])
            #expect(joined.tier == full.tier && joined.paidOut?.total == 500 && joined.pinUsed == (1, 150))
            let bare = try await database.read { sql in
                try await sql.limits.snapshot(userId: "nobody", currency: "NGN", windows: nil, withCredentials: true)
            }
            #expect(bare.credentials == [] && bare.own.isEmpty)
        }
    }

    @Test(
        "a read made with an entry sees the store as it was just before, and is judged before the funds",
        arguments: TestEngines.all)
    func entryWithRead(engine: DatabaseEngine) async throws {
        struct Refused: Error {}
        try await TestDatabase.with(engine) { database in
            let (wallet, _) = try await RepositoryContractTests.makeUser("m5", on: database)
            let clearing = SystemAccount.supplierClearing("NGN")
            try await database.transaction { sql in
                try await sql.ledger.post(
                    .transfer(
                        kind: .funding, reference: "f5", amount: 1_000, from: SystemAccount.funding("NGN"), to: wallet),
                    now: Self.now)
            }
            let windows = (since: Self.now - 30 * 86_400_000, alsoSince: Self.now - 86_400_000)
            // A debit with its wallet line, the limits' snapshot and the wallet's balance read with it:
            // the read counts neither the debit nor its line. Returns what the read saw.
            func debit(_ amount: Int64, refuse: Bool = false) async throws -> (paid: Int64?, balance: Int64?) {
                try await database.transaction { sql in
                    let line = WalletTransaction(
                        id: Identifier.make("tx"), userId: "m5", type: .topup, status: .pending, amount: amount,
                        currency: "NGN", productCode: nil, recipientPhone: nil, supplierSlug: nil,
                        authorizedBy: "pin", cashbackUsed: 0, cashbackEarned: 0, externalReference: nil,
                        idempotencyKey: nil, failureCode: nil, createdAt: Self.now, updatedAt: Self.now)
                    let read = LimitsRepository.SnapshotRead(
                        userId: "m5", currency: "NGN", windows: windows, balancesOf: (wallet, wallet))
                    var seen: (paid: Int64?, balance: Int64?) = (nil, nil)
                    try await sql.ledger.post(
                        .transfer(kind: .topup, reference: line.id, amount: amount, from: wallet, to: clearing),
                        now: Self.now, with: WalletTransactionRepository.row(line),
                        reading: LedgerRepository.Read(
                            query: { binds in read.query(binds: &binds) },
                            judge: { rows in
                                let snapshot = try read.snapshot(from: rows)
                                seen = (snapshot.paidOut?.total, snapshot.balances?.wallet)
                                if refuse { throw Refused() }
                            }))
                    return seen
                }
            }
            let first = try await debit(400)
            let second = try await debit(100)
            #expect(first.paid == 0 && first.balance == 1_000)
            #expect(second.paid == 400 && second.balance == 600)

            // A judgement that throws rolls the debit back; over the funds, it still comes first.
            let before = try await LedgerAudit.snapshot(database)
            await #expect(throws: Refused.self) { try await debit(100, refuse: true) }
            await #expect(throws: Refused.self) { try await debit(5_000, refuse: true) }
            await #expect(throws: LedgerError.insufficientFunds(accountId: wallet)) { try await debit(5_000) }
            #expect(try await LedgerAudit.snapshot(database) == before)
            #expect(try await database.read { sql in try await sql.ledger.balance(accountId: wallet) } == 500)
        }
    }
}
