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
            return Self.json(
                try await topUps.topUp(userId: userId, intent: intent, request: body, session: context.session),
                context: context)
        }
        let idempotent = IdempotentRequest(
            key: key, canonical: Self.canonicalRequest(intent: intent, useCashback: body.useCashback ?? false))
        let (idempotency, fingerprint) = (self.idempotency, idempotent.fingerprint)
        // A key already answered (or still running) answers before anything is authorized: its
        // token may be spent or expired by now. A read, not a write: the claim itself is made in
        // the debit's transaction.
        if let known = try await database.read({ sql in
            try await idempotency.lookup(userId: userId, key: key, requestHash: fingerprint, on: sql)
        }) {
            return try Self.answer(known)
        }
        do {
            return Self.json(
                try await topUps.topUp(
                    userId: userId, intent: intent, request: body, session: context.session,
                    idempotency: IdempotencyTicket(key: key, requestHash: fingerprint, owner: instance.id)),
                context: context)
        } catch let taken as IdempotencyKeyTaken {
            return try Self.answer(taken.claim)
        }
    }

    /// The answer to a top-up whose key a request has already used.
    static func answer(_ claim: IdempotencyClaim) throws(APIError) -> Response {
        switch claim {
        case .replay(let status, let stored):
            var response = Response(
                status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: stored)))
            response.headers[.idempotentReplayed] = "true"
            return response
        case .inFlight, .claimed:
            throw IdempotentRequest.inFlight
        case .mismatch, .existing:
            // `.existing` is another endpoint's key (its fingerprint never matches a top-up's).
            throw IdempotentRequest.reused
        }
    }

    /// `GET /user/wallet` → `{balance, cashback, currency}` of the primary wallet, and `wallets`.
    @Sendable func wallet(_ request: Request, context: AppRequestContext) async throws -> WalletResponse {
        try await wallets.wallet(userId: try context.requireUser())
    }

    /// `GET /user/transactions?limit=&cursor=&currency=` → newest first; with `currency`, one wallet's.
    @Sendable func transactions(_ request: Request, context: AppRequestContext) async throws -> TransactionPage {
        let query = request.uri.queryParameters
        var limit = 20
        if let text = query["limit"] {
            guard let parsed = Int(String(text)) else { throw APIError(.invalidLimit, "limit must be an integer.") }
            limit = parsed
        }
        return try await wallets.transactions(
            userId: try context.requireUser(), cursor: query["cursor"].map(String.init), limit: limit,
            currency: query["currency"].map(String.init))
    }

    /// What makes two top-ups "the same request": the canonical payment intent and whether cashback
    /// is spent, never the factor that authorized it (a different PIN once answered 422 and the right
    /// one replayed: a PIN oracle).
    static func canonicalRequest(intent: PaymentIntent, useCashback: Bool) -> [UInt8] {
        Array(intent.canonicalBytes) + [useCashback ? 1 : 0]
    }

    /// The top-up's answer, in the bytes its replays will repeat.
    static func json(_ settled: SettledTopUp, context: AppRequestContext) -> Response {
        context.responseEncoder.observe(settled.response)
        return json(settled.json)
    }

    static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension WalletResponse: ResponseEncodable {}
extension TransactionPage: ResponseEncodable {}
