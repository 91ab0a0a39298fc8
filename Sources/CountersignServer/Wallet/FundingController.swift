import CountersignAPI
import HTTPTypes
import Hummingbird

/// `/wallet/fundings`: adding money to a wallet by card or bank.
package struct FundingController {
    let fundings: FundingService

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.createFunding, use: create)
        group.on(.funding, use: funding)
    }

    /// `POST /wallet/fundings` with `Idempotency-Key` → 201 the new funding (with `redirectURL` when
    /// the payer must go to 3-D Secure or the bank); a retry with the same key and body → 200 the
    /// funding as it stands, with `Idempotent-Replayed: true`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<WalletFunding>
    {
        var request = request
        let userId = try context.requireUser()
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            throw APIError(.missingIdempotencyKey, "POST /wallet/fundings needs an Idempotency-Key header.")
        }
        let body = try await request.decodeJSON(as: CreateFundingRequest.self, context: context)
        let (funding, replayed) = try await fundings.create(userId: userId, body, idempotencyKey: key)
        guard replayed else { return EditedResponse(status: .created, response: funding) }
        return EditedResponse(status: .ok, headers: [.idempotentReplayed: "true"], response: funding)
    }

    /// `GET /wallet/fundings/{id}` → the funding, refreshed from the provider while pending; 404
    /// unless it is the caller's.
    @Sendable func funding(_ request: Request, context: AppRequestContext) async throws -> WalletFunding {
        try await fundings.funding(userId: try context.requireUser(), id: try context.parameters.require("id"))
    }
}

extension WalletFunding: ResponseEncodable {}
