import Testing

@testable import CountersignServer
@testable import CountersignStore

/// The spending limits' windows read a sum per day (`spending_days`, kept by triggers) and the
/// payments of the window's first day: the answer must be the sum over every payment in the window,
/// at every boundary, as payments are made, fail, change and are removed.
@Suite("Spending days")
struct SpendingDaysTests {
    static let day: Int64 = 86_400_000
    /// The start of a UTC day, a few days after `RepositoryContractTests.now`.
    static let midnight = (RepositoryContractTests.now / day + 3) * day

    struct Payment {
        var id: String
        var userId = "sd1"
        var type = "topup"
        var status = "completed"
        var amount: Int64
        var currency = "NGN"
        var createdAt: Int64

        var counts: Bool {
            ["topup", "transfer_out", "order_payment"].contains(type) && status != "failed" && userId == "sd1"
                && currency == "NGN"
        }
    }

    static func insert(_ payments: [Payment], on database: any Database) async throws {
        try await database.transaction { sql in
            for payment in payments {
                try await sql.execute(
                    """
                    INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
                    """,
                    [
                        .text(payment.id), .text(payment.userId), .text(payment.type), .text(payment.status),
                        .integer(payment.amount), .text(payment.currency), .integer(payment.createdAt),
                    ])
            }
        }
    }

    /// Every window start from before the first payment to after the last, boundaries and their
    /// neighbours included, against the sum over `payments`.
    static func expectSums(_ payments: [Payment], on database: any Database) async throws {
        var starts: [Int64] = [0, midnight - 40 * day]
        for offset in -3...3 {
            let boundary = midnight + Int64(offset) * day
            starts += [boundary - 1, boundary, boundary + 1, boundary + day / 2]
        }
        starts += payments.flatMap { [$0.createdAt - 1, $0.createdAt] }
        for since in starts {
            let alsoSince = since + day / 3
            let sums = try await database.read { sql in
                try await sql.limits.paidOut(userId: "sd1", currency: "NGN", since: since, alsoSince: alsoSince)
            }
            let counted = payments.filter(\.counts)
            let total = counted.filter { $0.createdAt > since }.reduce(0) { $0 + $1.amount }
            let recent = counted.filter { $0.createdAt > alsoSince }.reduce(0) { $0 + $1.amount }
            #expect(sums.total == total, "since \(since - midnight)")
            #expect(sums.recent == recent, "also since \(alsoSince - midnight)")
        }
        // The days the triggers kept are what the migration builds from the rows.
        let (kept, rebuilt) = try await database.read { sql in
            let order = " ORDER BY user_id, currency, day"
            let days = "SELECT user_id, currency, day, amount FROM spending_days WHERE amount <> 0"
            return (
                try await sql.query(days + order, []),
                try await sql.query("SELECT * FROM (\(Migration0026SpendingDays.days)) AS rebuilt" + order, [])
            )
        }
        let describe = { (rows: [SQLRow]) in
            try rows.map {
                "\(try $0.string("user_id")) \(try $0.string("currency")) \(try $0.int("day")) \(try $0.int("amount"))"
            }
        }
        #expect(try describe(kept) == describe(rebuilt))
        #expect(try describe(kept).count >= 3)
    }

    @Test("the windows' sums equal the sum over every payment at every boundary", arguments: TestEngines.all)
    func sums(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            _ = try await RepositoryContractTests.makeUser("sd1", on: database)
            _ = try await RepositoryContractTests.makeUser("sd2", on: database)
            let (m, d) = (Self.midnight, Self.day)
            var payments: [Payment] = [
                Payment(id: "a", amount: 100, createdAt: m - 2 * d),
                Payment(id: "b", amount: 200, createdAt: m - 1),
                Payment(id: "c", amount: 300, createdAt: m),
                Payment(id: "d", amount: 400, createdAt: m + 1),
                Payment(id: "e", type: "transfer_out", amount: 500, createdAt: m + d / 2),
                Payment(id: "f", type: "order_payment", amount: 600, createdAt: m + d - 1),
                Payment(id: "g", status: "pending", amount: 700, createdAt: m + d),
                Payment(id: "h", status: "failed", amount: 800, createdAt: m + d + 5),
                Payment(id: "i", type: "funding", amount: 900, createdAt: m + 2 * d),
                Payment(id: "j", type: "transfer_in", amount: 1_000, createdAt: m + 2 * d),
                Payment(id: "k", userId: "sd2", amount: 1_100, createdAt: m + 2 * d),
                Payment(id: "l", amount: 1_200, currency: "USD", createdAt: m + 2 * d),
                Payment(id: "m", amount: 1_300, createdAt: m - 35 * d),
            ]
            try await Self.insert(payments, on: database)
            try await Self.expectSums(payments, on: database)

            // The pending one fails; a settled one changes amount and day; one is removed; a failed
            // one is counted again.
            let failed = try await database.transaction { sql in
                try await sql.walletTransactions.finish(
                    id: "g", status: .failed, cashbackEarned: 0, externalReference: nil, failureCode: "x",
                    now: Self.midnight)
            }
            #expect(failed)
            payments[6].status = "failed"
            try await database.transaction { sql in
                try await sql.execute(
                    "UPDATE wallet_transactions SET amount = 450, created_at = $1 WHERE id = 'd'",
                    [.integer(Self.midnight - 3)])
                try await sql.execute("DELETE FROM wallet_transactions WHERE id = 'e'", [])
                try await sql.execute("UPDATE wallet_transactions SET status = 'completed' WHERE id = 'h'", [])
                try await sql.execute("UPDATE wallet_transactions SET type = 'funding' WHERE id = 'f'", [])
            }
            payments[3].amount = 450
            payments[3].createdAt = Self.midnight - 3
            payments.remove(at: 4)
            payments[6].status = "completed"
            payments[4].type = "funding"
            #expect(payments.map(\.id) == ["a", "b", "c", "d", "f", "g", "h", "i", "j", "k", "l", "m"])
            try await Self.expectSums(payments, on: database)
        }
    }

    /// A debit locks the payer's accounts, then inserts its payment; a failed top-up's settlement
    /// updates its payment, then moves money back to the payer's account. Were the day's sum locked
    /// at each statement, the two would lock it and the account in opposite orders (PostgreSQL:
    /// deadlock detected, a 500 for one of them).
    @Test("debits and failing settlements of one payer at once all commit", arguments: TestEngines.all)
    func noDeadlock(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let (wallet, _) = try await RepositoryContractTests.makeUser("sd1", on: database)
            let lockWallet = "SELECT balance FROM accounts WHERE id = $1" + database.forUpdate
            let pending = (0..<20).map {
                Payment(id: "p\($0)", status: "pending", amount: 10, createdAt: Self.midnight)
            }
            try await Self.insert(pending, on: database)
            let failures = await withTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                _ = try await sql.query(lockWallet, [.text(wallet)])
                                try await Task.sleep(for: .milliseconds(5))
                                try await sql.execute(
                                    """
                                    INSERT INTO wallet_transactions (id, user_id, type, status, amount, currency, created_at, updated_at)
                                    VALUES ($1, 'sd1', 'topup', 'pending', 10, 'NGN', $2, $2)
                                    """, [.text("n\(index)"), .integer(Self.midnight)])
                            }
                            return 0
                        } catch { return 1 }
                    }
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                try await sql.execute(
                                    "UPDATE wallet_transactions SET status = 'failed' WHERE id = $1",
                                    [.text("p\(index)")])
                                try await Task.sleep(for: .milliseconds(5))
                                _ = try await sql.query(lockWallet, [.text(wallet)])
                            }
                            return 0
                        } catch { return 1 }
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(failures == 0)
            let paid = try await database.read { sql in
                try await sql.limits.paidOut(userId: "sd1", currency: "NGN", since: Self.midnight - 1)
            }
            #expect(paid == 20 * 10)
        }
    }
}
