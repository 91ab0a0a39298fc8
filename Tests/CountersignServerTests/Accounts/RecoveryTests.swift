import CountersignAPI
import CountersignCore
import CountersignStore
import Testing

@testable import CountersignServer

/// Top-ups left pending by a stopped process are settled by the sweeper, once.
@Suite("Recovery")
struct RecoveryTests {
    @Test("a pending top-up is completed or reversed by the sweeper, exactly once", arguments: TestEngines.all)
    func sweep(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            let topUps = server.services.topUps
            // Two top-ups debited, then the "process died" before the supplier answered.
            let delivered = try await topUps.debit(
                userId: user.userId,
                intent: PaymentIntent(
                    amount: 1_000, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                    supplierSlug: "mtn"), useCashback: false, authorization: .pin)
            let refused = try await topUps.debit(
                userId: user.userId,
                intent: PaymentIntent(
                    amount: 2_000, currency: "NGN", productCode: "AIRTIME_MTN", recipientPhone: "08011110000",
                    supplierSlug: "mtn"), useCashback: false, authorization: .pin)
            #expect(try await server.wallet(user).balance == 7_000)

            let sweeper = server.services.pendingTopUpSweeper
            #expect(await sweeper.sweep() == 0, "too young to touch: a live request may still own them")
            server.clock.advance(seconds: 121)
            async let first = sweeper.sweep()
            async let second = sweeper.sweep()
            #expect(await first + second == 2, "two sweepers racing settle each top-up once")
            #expect(await sweeper.sweep() == 0)

            let states = try await server.database.read { sql in
                (
                    try await sql.walletTransactions.find(id: delivered.id)?.status,
                    try await sql.walletTransactions.find(id: refused.id)?.status
                )
            }
            #expect(states.0 == .completed)
            #expect(states.1 == .failed)
            #expect(try await server.wallet(user).balance == 9_000)
            #expect(try await server.wallet(user).cashback == 10)
            try await LedgerAudit.check(server.database)
        }
    }
}

/// A top-up request that never hears back from its supplier (as if its process died) is settled by
/// the sweeper, and a retry with the same Idempotency-Key replays that settlement instead of paying again.
@Suite("Recovery with idempotency")
struct IdempotentRecoveryTests {
    @Test("retry after a stalled request replays the sweeper's settlement", arguments: TestEngines.all)
    func stalledRequest(engine: DatabaseEngine) async throws {
        let supplier = StalledSupplier()
        try await LiveServer.run(engine, supplier: supplier) { server in
            let user = try await server.signup()
            _ = try await server.services.wallets.fund(phone: user.phone, amount: 10_000, reference: nil)
            async let stalled = server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-9")
            await supplier.gate.waitUntilCalled()
            #expect(try await server.wallet(user).balance == 9_000, "debited, supplier not yet heard from")
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-9").status == 409)

            server.clock.advance(seconds: 121)
            #expect(await server.services.pendingTopUpSweeper.sweep() == 1)
            let retry = try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-9")
            #expect(retry.status == 200)
            #expect(retry.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try retry.decode(TopUpResponse.self).data.status == "completed")
            #expect(try await server.wallet(user).balance == 9_000, "charged once")

            supplier.gate.open()
            let late = try await stalled
            #expect(late.status == 409, "the stalled request finds its top-up settled already")
            #expect(try await server.topUp(user, amount: 1_000, pin: user.pin, idempotencyKey: "order-9").status == 200)
            #expect(try await server.wallet(user).balance == 9_000)
            try await LedgerAudit.check(server.database)
        }
    }
}

/// A supplier whose purchase call hangs until the test opens the gate, but whose status lookup
/// reports the order delivered (the supplier did its part; our process never heard).
final class StalledSupplier: AirtimeSupplier {
    let gate = GatedSupplier()
    func purchase(_ order: AirtimeOrder) async throws -> AirtimeOutcome { try await gate.purchase(order) }
    func outcome(ofTransaction transactionId: String, order: AirtimeOrder) async throws -> AirtimeOutcome? {
        .delivered(reference: "LOOKUP-\(transactionId)")
    }
}
