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
        if body.pin != nil { try await throttle.check(request, context: context, account: [.pinAccount], key: userId) }
        let key = try IdempotentRequest.key(in: request.headers)
        switch try await topUps.topUp(userId: userId, body, idempotencyKey: key, session: context.session) {
        case .settled(let settled):
            // The answer in the bytes its replays will repeat.
            return Self.json(status: .ok, settled.json)
        case .replayed(let status, let stored):
            var response = Self.json(status: .init(code: status), stored)
            response.headers[.idempotentReplayed] = "true"
            return response
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

    static func json(status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension WalletResponse: ResponseEncodable {}
extension TransactionPage: ResponseEncodable {}
