import CountersignAPI
import CountersignServer
import CountersignStore
import Synchronization
import Testing

/// `Idempotency-Key` on `POST /user/topup`.
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

    @Test("a retry while the first is in flight is 409", arguments: TestEngines.all)
    func inFlight(engine: DatabaseEngine) async throws {
        let supplier = GatedSupplier()
        try await LiveServer.run(engine, supplier: supplier) { server in
            let user = try await server.fundedUser(balance: 10_000)
            async let first = server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "slow")
            await supplier.waitUntilCalled()
            let second = try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "slow")
            #expect(second.status == 409)
            #expect(second.errorCode == "idempotency_in_flight")
            supplier.open()
            #expect(try await first.status == 200)
            #expect(try await server.wallet(user).balance == 9_000)
        }
    }

    @Test("a refused request releases its key", arguments: TestEngines.all)
    func refusalReleases(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 10_000)
            #expect(try await server.topUp(user, amount: 1_000, pin: "0000", idempotencyKey: "k1").status == 401)
            // Same key, corrected request: processed, not refused as a mismatch.
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "k1").status == 200)
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
