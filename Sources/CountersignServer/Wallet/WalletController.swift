import CountersignAPI
import CountersignCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WebAuthn

/// `/user`: top-ups, wallet and history.
package struct UserController {
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
        guard let key = request.headers[.idempotencyKey] else {
            return try Self.json(try await topUps.topUp(userId: userId, intent: intent, request: body))
        }
        guard (1...255).contains(key.utf8.count) else {
            throw APIError.badRequest("invalid_idempotency_key", "Idempotency-Key must be 1 to 255 characters.")
        }
        let hash = Self.requestHash(intent: intent, useCashback: body.useCashback ?? false)
        let (idempotency, now) = (self.idempotency, clock.nowMillis())
        let staleBefore = now - Self.abandonedClaimMillis
        let owner = instance.id
        let claim = try await database.transaction { sql in
            try await idempotency.claim(userId: userId, key: key, requestHash: hash, owner: owner, now: now, staleBefore: staleBefore, on: sql)
        }
        let claimId: String
        switch claim {
        case .replay(let status, let stored):
            var response = Response(status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: stored)))
            response.headers[.idempotentReplayed] = "true"
            return response
        case .inFlight:
            throw APIError.conflict("idempotency_in_flight", "A request with this Idempotency-Key is still being processed.")
        case .mismatch:
            throw APIError.unprocessable("idempotency_key_reused", "This Idempotency-Key was used with a different request body.")
        case .claimed(let id):
            claimId = id
        }
        do {
            return try Self.json(try await topUps.topUp(userId: userId, intent: intent, request: body, idempotency: IdempotencyTicket(key: key, claimId: claimId)))
        } catch {
            // Refused before money moved: forget the key so the client may retry with it. (A key
            // linked to a debit is kept; the settlement completes it.)
            try? await database.transaction { sql in try await idempotency.release(userId: userId, key: key, claimId: claimId, on: sql) }
            throw error
        }
    }

    /// A claim this old that never moved money belonged to a request that died; a retry takes it over.
    /// (A claim whose process is gone is taken over at once; this is for claims that name no owner.)
    static let abandonedClaimMillis: Int64 = 5 * 60 * 1000

    /// `GET /user/wallet` → `{balance, cashback, currency}`.
    @Sendable func wallet(_ request: Request, context: AppRequestContext) async throws -> WalletResponse {
        try await wallets.wallet(userId: try context.requireUser())
    }

    /// `GET /user/transactions?limit=&cursor=` → newest first.
    @Sendable func transactions(_ request: Request, context: AppRequestContext) async throws -> TransactionPage {
        let query = request.uri.queryParameters
        var limit = 20
        if let text = query["limit"] {
            guard let parsed = Int(String(text)) else { throw APIError.badRequest("invalid_limit", "limit must be an integer.") }
            limit = parsed
        }
        return try await wallets.transactions(userId: try context.requireUser(), cursor: query["cursor"].map(String.init), limit: limit)
    }

    /// What makes two top-ups "the same request": the canonical payment intent and whether cashback
    /// is spent, never the factor that authorized it. The PIN and the verification token stay out,
    /// so a stored hash cannot be inverted to a PIN, and a retry answers the same whatever secret
    /// it carries (a different PIN once answered 422 and the right one replayed: a PIN oracle).
    static func requestHash(intent: PaymentIntent, useCashback: Bool) -> String {
        var hasher = SHA256()
        hasher.update(data: intent.canonicalBytes)
        hasher.update(data: [useCashback ? 1 : 0])
        return Base64URL.encode(Array(hasher.finalize()))
    }

    static func json(_ value: TopUpResponse) throws -> Response {
        json(try TopUpResponse.encodedForReplay(value))
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}

extension WalletResponse: ResponseEncodable {}
extension TransactionPage: ResponseEncodable {}
