import CountersignAPI
import HTTPTypes
import Hummingbird

extension MarketplaceController {
    /// `POST /orders/{id}/refunds {amount, reason}` with `Idempotency-Key` (the seller, until the
    /// order completes) → 201 the refund (`pending`, or already settled); a retry with the key → 200
    /// the refund it made, `Idempotent-Replayed: true`.
    @Sendable func createRefund(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        RefundResponse
    > {
        var request = request
        let userId = try context.requireUser()
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            throw APIError(.missingIdempotencyKey, "A refund needs an Idempotency-Key header.")
        }
        let body = try await request.decodeJSON(as: CreateRefundRequest.self, context: context)
        let (refund, replayed) = try await marketplace.refund(
            orderId: try context.parameters.require("id"), by: .seller(userId), body, idempotencyKey: key)
        return Self.answer(refund, replayed: replayed)
    }

    /// `GET /orders/{id}/refunds` → the order's refunds, oldest first; 404 unless the caller is its
    /// buyer or seller.
    @Sendable func refunds(_ request: Request, context: AppRequestContext) async throws -> RefundList {
        try await marketplace.refunds(userId: try context.requireUser(), orderId: try context.parameters.require("id"))
    }

    /// 201 for a new refund, 200 with `Idempotent-Replayed: true` for the one a key made.
    static func answer(_ refund: RefundResponse, replayed: Bool) -> EditedResponse<RefundResponse> {
        guard replayed else { return EditedResponse(status: .created, response: refund) }
        return EditedResponse(status: .ok, headers: [.idempotentReplayed: "true"], response: refund)
    }
}

extension RefundResponse: ResponseEncodable {}
extension RefundList: ResponseEncodable {}
