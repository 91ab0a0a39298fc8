import CountersignAPI
import CountersignServer
import CountersignStore
import Synchronization
import Testing

/// `Idempotency-Key` on `POST /user/topup`, and the key space it shares with `POST /transfers`.
@Suite("Idempotency")
struct IdempotencyTests {
    @Test("same key and body replays; another body is 422", arguments: TestEngines.all)
    func replay(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let first = try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-17")
            #expect(first.status == 200)
            #expect(first.headers.first(name: "Idempotent-Replayed") == nil)
            let again = try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-17")
            #expect(again.status == 200)
            #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try again.decode(TopUpResponse.self) == (try first.decode(TopUpResponse.self)))
            #expect(try await server.wallet(user).balance == 9_000)

            let other = try await server.topUp(user, amount: 2_000, pin: user.pin, idempotencyKey: "order-17")
            #expect(other.status == 422)
            #expect(other.errorCode == "idempotency_key_reused")
            #expect(try await server.wallet(user).balance == 9_000)
        }
    }

    @Test(
        "a replay is the first answer byte for byte, its balance and cashback as they were then",
        arguments: TestEngines.all)
    func replayBytes(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let first = try await server.topUp(user, amount: 2_000, pin: user.pin, idempotencyKey: "bytes-1")
            #expect(first.status == 200)
            let answer = try first.decode(TopUpResponse.self)
            let wallet = try await server.wallet(user)
            // On PostgreSQL the settlement's statement reads the balance and writes it into the stored answer.
            #expect(wallet.balance == 8_000 && wallet.cashback == 20)
            #expect(answer.data.balance == 8_000 && answer.data.cashbackEarned == 20)
            #expect(try await LedgerAudit.count("ledger_transactions WHERE kind = 'cashback'", server.database) == 1)

            // Another payment moves the wallet; the replay says what the first answer said.
            #expect(try await server.topUp(user, amount: 500, pin: user.pin).status == 200)
            let again = try await server.topUp(user, amount: 2_000, pin: user.pin, idempotencyKey: "bytes-1")
            #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(again.text == first.text)
        }
    }

    @Test(
        "one key space per user: a top-up's key refuses a transfer, and a transfer's a top-up",
        arguments: TestEngines.all)
    func oneKeySpace(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let payee = try await server.signup()
            #expect(
                try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "shared-1").status == 200)
            let transfer = try await server.createTransfer(user, to: payee.phone, amount: 1_000, key: "shared-1")
            #expect(transfer.status == 422 && transfer.errorCode == "idempotency_key_reused")
            #expect(try await LedgerAudit.count("transfers", server.database) == 0)

            #expect(
                try await server.createTransfer(user, to: payee.phone, amount: 1_000, key: "shared-2").status == 201)
            let topUp = try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "shared-2")
            #expect(topUp.status == 422 && topUp.errorCode == "idempotency_key_reused")
            #expect(try await server.wallet(user).balance == 9_000)
        }
    }

    @Test(
        "a transfer made before transfers kept their keys in idempotency_keys still replays after the migration",
        arguments: TestEngines.all)
    func transferKeysBackfilled(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let first = try await server.createTransfer(payer, to: payee.phone, amount: 2_000, key: "old-1")
            #expect(first.status == 201)
            // As the store was before migration 12: the key only on the transfer's own row.
            try await server.database.transaction { sql in
                try await sql.execute("DELETE FROM idempotency_keys WHERE idempotency_key = $1", [.text("old-1")])
                try await sql.execute(Migration0012TransferIdempotency.backfill)
            }
            let again = try await server.createTransfer(payer, to: payee.phone, amount: 2_000, key: "old-1")
            #expect(again.status == 200)
            #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try again.decode(TransferDocument.self).id == first.decode(TransferDocument.self).id)
            let other = try await server.createTransfer(payer, to: payee.phone, amount: 2_001, key: "old-1")
            #expect(other.status == 422 && other.errorCode == "idempotency_key_reused")
            #expect(try await LedgerAudit.count("transfers", server.database) == 1)
        }
    }

    @Test(
        "a token's or an assertion's retry replays once its token is spent or expired, and its challenge used",
        arguments: TestEngines.all)
    func replayAfterTheFactorIsSpent(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let token = try await server.authorize(user, amount: 1_000)
            let first = try await server.topUp(user, amount: 1_000, token: token, idempotencyKey: "by-token")
            #expect(first.status == 200, "\(first.text)")
            let again = try await server.topUp(user, amount: 1_000, token: token, idempotencyKey: "by-token")
            #expect(again.status == 200 && again.headers.first(name: "Idempotent-Replayed") == "true", "\(again.text)")
            #expect(again.text == first.text)
            // Another body under the key, with the spent token: the key's answer, not the token's.
            let other = try await server.topUp(user, amount: 2_000, token: token, idempotencyKey: "by-token")
            #expect(other.status == 422 && other.errorCode == "idempotency_key_reused", "\(other.text)")
            // Long after the token expired, the same retry is still answered from the key.
            server.clock.advance(seconds: 3_600)
            let late = try await server.topUp(user, amount: 1_000, token: token, idempotencyKey: "by-token")
            #expect(late.status == 200 && late.text == first.text, "\(late.text)")
            // Without the key, the spent token is refused as it always was.
            let keyless = try await server.topUp(user, amount: 1_000, token: token)
            #expect(keyless.status == 401, "\(keyless.text)")

            let assertion = try await server.signedAssertion(user, amount: 500)
            let paid = try await server.topUp(user, amount: 500, assertion: assertion, idempotencyKey: "by-assertion")
            #expect(paid.status == 200, "\(paid.text)")
            let replayed = try await server.topUp(
                user, amount: 500, assertion: assertion, idempotencyKey: "by-assertion")
            #expect(replayed.status == 200 && replayed.text == paid.text, "\(replayed.text)")
            #expect(replayed.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await server.wallet(user).balance == 8_500)
        }
    }

    @Test(
        "a retry while the first is in flight is 409 and pays nothing, by PIN or by token",
        arguments: TestEngines.all, [true, false])
    func inFlight(engine: DatabaseEngine, byPIN: Bool) async throws {
        let supplier = GatedSupplier()
        try await LiveServer.run(engine, supplier: supplier) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let token = byPIN ? nil : try await server.authorize(user, amount: 1_000)
            let pin = byPIN ? user.pin : nil
            async let first = server.topUp(user, amount: 1_000, token: token, pin: pin, idempotencyKey: "slow")
            await supplier.waitUntilCalled()
            let second = try await server.topUp(user, amount: 1_000, token: token, pin: pin, idempotencyKey: "slow")
            #expect(second.status == 409 && second.errorCode == "idempotency_in_flight", "\(second.text)")
            supplier.open()
            #expect(try await first.status == 200)
            #expect(try await server.wallet(user).balance == 9_000)
        }
    }

    @Test("a request refused before money moves writes no key, so the corrected retry runs", arguments: TestEngines.all)
    func refusalWritesNoKey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            func keys() async throws -> Int64 {
                try await server.database.read { sql in
                    try await sql.first(
                        "SELECT COUNT(*) AS n FROM idempotency_keys WHERE user_id = $1", [.text(user.userId)])?.int("n")
                        ?? -1
                }
            }
            // Refused while authorizing, and refused inside the debit's transaction (rolled back).
            #expect(try await server.topUp(user, amount: 1_000, pin: "0000", idempotencyKey: "k1").status == 401)
            let broke = try await server.topUp(user, amount: 20_000, pin: user.pin, idempotencyKey: "k2")
            #expect(broke.errorCode == "insufficient_funds")
            #expect(try await keys() == 0)
            // Same key, corrected request: processed, not refused as a mismatch.
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "k1").status == 200)
            #expect(try await server.topUp(user, amount: 2_000, pin: user.pin, idempotencyKey: "k2").status == 200)
            #expect(try await server.wallet(user).balance == 7_000)
        }
    }

    @Test("parallel copies of one top-up, token and key alike, charge it once", arguments: TestEngines.all)
    func parallelCopies(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            let token = try await server.authorize(user, amount: 1_000)
            let statuses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let response = try await server.topUp(
                            user, amount: 1_000, token: token, idempotencyKey: "same")
                        return (response.status, response.headers.first(name: "Idempotent-Replayed") == "true")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // One ran; each copy either replayed it or was told it is in flight, never charged or
            // refused for the token the first one spent.
            #expect(statuses.filter { $0 == (200, false) }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { $0 == (200, false) || $0 == (200, true) || $0.0 == 409 }, "\(statuses)")
            #expect(try await server.wallet(user).balance == 9_000)
            let replay = try await server.topUp(user, amount: 1_000, token: token, idempotencyKey: "same")
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            try await LedgerAudit.check(server.database)
        }
    }
}

/// A supplier that holds every purchase until the test opens the gate; fails loudly if never opened.
final class GatedSupplier: AirtimeSupplier {
    private let called = AsyncStream<Void>.makeStream()
    private let gate = Mutex<[CheckedContinuation<Void, Never>]?>([])

    func purchase(_ order: AirtimeOrder) async throws -> AirtimeOutcome {
        called.continuation.yield()
        await withCheckedContinuation { continuation in
            let alreadyOpen = gate.withLock { waiters -> Bool in
                guard waiters != nil else { return true }
                waiters?.append(continuation)
                return false
            }
            if alreadyOpen { continuation.resume() }
        }
        return .delivered(reference: "GATED-\(order.transactionId)")
    }

    func outcome(ofTransaction transactionId: String, order: AirtimeOrder) async throws -> AirtimeOutcome? { nil }

    func waitUntilCalled() async {
        var iterator = called.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    func open() {
        let waiters = gate.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            defer { waiters = nil }
            return waiters ?? []
        }
        waiters.forEach { $0.resume() }
    }
}
