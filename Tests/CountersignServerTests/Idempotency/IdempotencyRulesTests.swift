import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The rules of `Idempotency-Key`, checked the same way on every endpoint that takes it: a key of 1
/// to 255 bytes (400 `invalid_idempotency_key`), required where money moves on a resource (400
/// `missing_idempotency_key`), a retry with the same body answered as the first (`Idempotent-Replayed:
/// true`) without a second movement, another body under the key 422 `idempotency_key_reused` with
/// nothing written, one key space per user across endpoints, and none shared between users.
@Suite("Idempotency rules across endpoints")
struct IdempotencyRulesTests {
    /// One endpoint: how to send its request (`variant` 0 is the request, 1 another body), and the id
    /// of what an answer names.
    struct Endpoint: Sendable {
        let name: String
        /// Whether a request without a key is refused (a top-up without one is allowed: it is the
        /// original request shape, and then simply not retry-safe).
        let keyRequired: Bool
        /// Whether a replay is the first answer byte for byte: true unless the resource moves on by
        /// itself between the two requests (a transfer is looked up and quoted in the background).
        let bytewise: Bool
        let send: @Sendable (_ key: String?, _ variant: Int) async throws -> APIResponse
        let id: @Sendable (APIResponse) throws -> String
        /// Rows the endpoint writes, counted to see that a refusal wrote none.
        let written: @Sendable () async throws -> Int64
    }

    static func count(_ server: LiveServer, _ query: String) async throws -> Int64 {
        try await server.database.read { sql in try await sql.first(query)?.int("n") ?? 0 }
    }

    /// Every endpoint that takes `Idempotency-Key`, ready to be called by the users they need.
    static func endpoints(_ server: LiveServer) async throws -> (endpoints: [Endpoint], user: TestUser) {
        let payer = try await server.fundedUser(balance: 100_000)
        let payee = try await server.signup(name: "Bola")
        let admin = try await ReversalTests.operatorUser(server)
        let (seller, _, order) = try await RefundTests.paidOrder(server)
        let card = try await OrderPaymentTests.card(server, payer, "4242424242424242")
        @Sendable func headers(_ key: String?) -> [(String, String)] { key.map { [("Idempotency-Key", $0)] } ?? [] }
        let endpoints = [
            Endpoint(
                name: "POST /user/topup", keyRequired: false, bytewise: true,
                send: { key, variant in
                    try await server.topUp(
                        payer, amount: 500 + Int64(variant) * 100, pin: payer.pin, idempotencyKey: key)
                }, id: { try $0.decode(TopUpResponse.self).data.transactionId },
                written: {
                    try await count(server, "SELECT COUNT(*) AS n FROM wallet_transactions WHERE type = 'topup'")
                }
            ),
            Endpoint(
                name: "POST /transfers", keyRequired: true, bytewise: false,
                send: { key, variant in
                    try await server.client.post(
                        "/transfers",
                        CreateTransferRequest(
                            payeePhone: payee.phone, amount: 1_000 + Int64(variant) * 1_000, currency: "NGN"),
                        token: payer.token, headers: headers(key))
                }, id: { try $0.decode(TransferDocument.self).id },
                written: { try await count(server, "SELECT COUNT(*) AS n FROM transfers") }),
            Endpoint(
                name: "POST /wallet/fundings", keyRequired: true, bytewise: false,
                send: { key, variant in
                    try await server.client.post(
                        "/wallet/fundings",
                        CreateFundingRequest(
                            amount: 5_000 + Int64(variant) * 1_000, currency: "EUR", method: .card,
                            paymentMethodId: card), token: payer.token, headers: headers(key))
                }, id: { try $0.decode(WalletFunding.self).fundingId },
                written: { try await count(server, "SELECT COUNT(*) AS n FROM wallet_fundings") }),
            Endpoint(
                name: "POST /orders/{id}/refunds", keyRequired: true, bytewise: true,
                send: { key, variant in
                    try await server.client.post(
                        "/orders/\(order.id)/refunds",
                        CreateRefundRequest(amount: 1_000 + Int64(variant) * 500, reason: "Scratched"),
                        token: seller.token, headers: headers(key))
                }, id: { try $0.decode(RefundResponse.self).id },
                written: { try await count(server, "SELECT COUNT(*) AS n FROM order_refunds") }),
            Endpoint(
                name: "POST /operator/orders/{id}/refunds", keyRequired: true, bytewise: true,
                send: { key, variant in
                    try await server.client.post(
                        "/operator/orders/\(order.id)/refunds",
                        OperatorRefundRequest(amount: 700 + Int64(variant) * 100, reason: "Goodwill", pin: admin.pin),
                        token: admin.token, headers: headers(key))
                }, id: { try $0.decode(RefundResponse.self).id },
                written: { try await count(server, "SELECT COUNT(*) AS n FROM order_refunds") }),
            Endpoint(
                name: "POST /operator/users/{id}/fund", keyRequired: true, bytewise: false,
                send: { key, variant in
                    try await server.client.post(
                        "/operator/users/\(payee.userId)/fund",
                        OperatorFundRequest(pin: admin.pin, amount: 5_000 + Int64(variant) * 1_000),
                        token: admin.token, headers: headers(key))
                }, id: { try $0.decode(OperatorFunding.self).transactionId },
                written: {
                    try await count(server, "SELECT COUNT(*) AS n FROM wallet_transactions WHERE type = 'funding'")
                }),
        ]
        return (endpoints, payer)
    }

    @Test("every endpoint that takes Idempotency-Key follows the same rules", arguments: TestEngines.all)
    func sameRules(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (endpoints, _) = try await Self.endpoints(server)
            for endpoint in endpoints {
                let name = endpoint.name
                let before = try await endpoint.written()
                let tooLong = try await endpoint.send(String(repeating: "k", count: 256), 0)
                #expect(tooLong.errorCode == "invalid_idempotency_key", "\(name): \(tooLong.text)")
                if endpoint.keyRequired {
                    let missing = try await endpoint.send(nil, 0)
                    #expect(missing.errorCode == "missing_idempotency_key", "\(name): \(missing.text)")
                }
                #expect(try await endpoint.written() == before, "\(name): a refused key writes nothing")

                let key = "rules-\(UUID().uuidString)"
                let first = try await endpoint.send(key, 0)
                #expect([200, 201].contains(first.status), "\(name): \(first.text)")
                #expect(first.headers.first(name: "Idempotent-Replayed") == nil, "\(name)")
                let made = try await endpoint.written()
                #expect(made == before + 1, "\(name)")

                let again = try await endpoint.send(key, 0)
                #expect(again.status == 200 && again.headers.first(name: "Idempotent-Replayed") == "true", "\(name)")
                #expect(try endpoint.id(again) == (try endpoint.id(first)), "\(name): the same resource")
                if endpoint.bytewise { #expect(again.text == first.text, "\(name): the same answer") }
                #expect(try await endpoint.written() == made, "\(name): a replay moves nothing")

                let other = try await endpoint.send(key, 1)
                #expect(other.status == 422 && other.errorCode == "idempotency_key_reused", "\(name): \(other.text)")
                #expect(try await endpoint.written() == made, "\(name): a reused key writes nothing")
            }
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "one key space per user: a key used on one endpoint is refused on every other; another user's is theirs",
        arguments: TestEngines.all)
    func oneKeySpace(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let (endpoints, payer) = try await Self.endpoints(server)
            // The payer's own endpoints: top-up, transfer, funding.
            let own = endpoints.filter {
                ["POST /user/topup", "POST /transfers", "POST /wallet/fundings"].contains($0.name)
            }
            for (index, endpoint) in own.enumerated() {
                let key = "shared-\(index)"
                let first = try await endpoint.send(key, 0)
                #expect([200, 201].contains(first.status), "\(endpoint.name): \(first.text)")
                for other in own where other.name != endpoint.name {
                    let reused = try await other.send(key, 0)
                    #expect(
                        reused.status == 422 && reused.errorCode == "idempotency_key_reused",
                        "\(endpoint.name)'s key on \(other.name): \(reused.text)")
                }
            }
            // Another user's key is not the payer's: the same key makes their own top-up.
            let stranger = try await server.fundedUser(balance: 5_000)
            let theirs = try await server.topUp(stranger, amount: 500, pin: stranger.pin, idempotencyKey: "shared-0")
            #expect(theirs.status == 200 && theirs.headers.first(name: "Idempotent-Replayed") == nil)
            #expect(try await server.wallet(stranger).balance == 4_500)
            #expect(try await server.wallet(payer).balance == 99_500)
            try await LedgerAudit.check(server.database)
        }
    }
}
