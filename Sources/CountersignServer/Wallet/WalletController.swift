import CountersignAPI
import CountersignCore
import CountersignStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WebAuthn

/// `/user`: top-ups, wallet and history.
package struct WalletController {
    let throttle: RequestThrottle
    let topUps: TopUpService
    let wallets: WalletService
    let idempotency: any IdempotencyRepository
    let database: any Database
    let clock: WallClock
    /// This process: the owner its claims record.
    let instance: ServerInstance

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.topUp, use: topUp)
        group.on(.wallet, use: wallet)
        group.on(.listTransactions, use: transactions)
    }

    /// `POST /user/topup`: the seed's request and response. With `Idempotency-Key`, a retry with the
    /// same body replays the stored answer (`Idempotent-Replayed: true`); another body is 422; a
    /// retry while the first is still running is 409.
    @Sendable func topUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let userId = try context.requireUser()
        let bytes = try await request.jsonBodyBytes(context: context)
        let body = try JSONBody.decode(TopUpRequest.self, from: bytes)
        if body.pin != nil { try throttle.check(request, context: context, account: [.pinAccount], key: userId) }
        let intent = try topUps.validate(body)
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            return try Self.json(
                try await topUps.topUp(userId: userId, intent: intent, request: body), context: context)
        }
        let idempotent = IdempotentRequest(
            key: key, canonical: Self.canonicalRequest(intent: intent, useCashback: body.useCashback ?? false))
        let (idempotency, now) = (self.idempotency, clock.nowMillis())
        let staleBefore = now - IdempotentRequest.abandonedClaimMillis
        let owner = instance.id
        let claim = try await database.transaction { sql in
            try await idempotency.claim(
                userId: userId, key: key, requestHash: idempotent.fingerprint, owner: owner, now: now,
                staleBefore: staleBefore, on: sql)
        }
        let claimId: String
        switch claim {
        case .replay(let status, let stored):
            var response = Response(
                status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: stored)))
            response.headers[.idempotentReplayed] = "true"
            return response
        case .inFlight:
            throw IdempotentRequest.inFlight
        case .mismatch, .existing:
            // `.existing` is another endpoint's key (its fingerprint never matches a top-up's).
            throw IdempotentRequest.reused
        case .claimed(let id):
            claimId = id
        }
        do {
            return try Self.json(
                try await topUps.topUp(
                    userId: userId, intent: intent, request: body,
                    idempotency: IdempotencyTicket(key: key, claimId: claimId)), context: context)
        } catch {
            // Refused before money moved: forget the key so the client may retry with it. (A key
            // linked to a debit is kept; the settlement completes it.)
            try? await database.transaction { sql in
                try await idempotency.release(userId: userId, key: key, claimId: claimId, on: sql)
            }
            throw error
        }
    }

    /// `GET /user/wallet` → `{balance, cashback, currency}`.
    @Sendable func wallet(_ request: Request, context: AppRequestContext) async throws -> WalletResponse {
        try await wallets.wallet(userId: try context.requireUser())
    }

    /// `GET /user/transactions?limit=&cursor=` → newest first.
    @Sendable func transactions(_ request: Request, context: AppRequestContext) async throws -> TransactionPage {
        let query = request.uri.queryParameters
        var limit = 20
        if let text = query["limit"] {
            guard let parsed = Int(String(text)) else { throw APIError(.invalidLimit, "limit must be an integer.") }
            limit = parsed
        }
        return try await wallets.transactions(
            userId: try context.requireUser(), cursor: query["cursor"].map(String.init), limit: limit)
    }

    /// What makes two top-ups "the same request": the canonical payment intent and whether cashback
    /// is spent, never the factor that authorized it (a different PIN once answered 422 and the right
    /// one replayed: a PIN oracle).
    static func canonicalRequest(intent: PaymentIntent, useCashback: Bool) -> [UInt8] {
        Array(intent.canonicalBytes) + [useCashback ? 1 : 0]
    }

    /// The top-up's answer, encoded as its replays will be (`encodedForReplay`).
    static func json(_ value: TopUpResponse, context: AppRequestContext) throws -> Response {
        context.responseEncoder.observe(value)
        return json(try TopUpResponse.encodedForReplay(value))
    }

    static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension WalletResponse: ResponseEncodable {}
extension TransactionPage: ResponseEncodable {}
