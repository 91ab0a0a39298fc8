import CountersignAPI
import CountersignStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WebAuthn

/// `/transfers`: transfers with fee quotes, as live documents the server moves on.
package struct TransferController {
    let transfers: TransferService
    let accounts: AccountService
    /// What the event stream reads, and its timing.
    let database: any Database
    let feed: TransferFeed
    let configuration: ServerConfiguration
    let throttle: RequestThrottle
    let metrics: ServerMetrics

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.createTransfer, use: create)
        group.on(.transfer, use: document)
        group.on(.transferEvents, use: events)
        group.on(.authorizeTransfer, use: authorize)
        group.on(.declineTransfer, use: decline)
        group.on(.cancelTransfer, use: cancel)
    }

    /// `POST /transfers` with `Idempotency-Key` → 201 the new document; a retry with the same key
    /// and body → 200 the current document with `Idempotent-Replayed: true`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let userId = try context.requireUser()
        guard let key = try IdempotentRequest.key(in: request.headers) else {
            throw APIError(.missingIdempotencyKey, "POST /transfers needs an Idempotency-Key header.")
        }
        let body = try await request.decodeJSON(as: CreateTransferRequest.self, context: context)
        // Each transfer is issued a challenge once quoted.
        try await throttle.check(
            request, context: context, address: [.challengeAddress], account: [.challengeAccount, .transferAccount],
            key: userId)
        let (transfer, replayed) = try await transfers.create(
            payerId: userId, body, idempotencyKey: key, session: context.session)
        var response = try Self.json(transfer.document, status: replayed ? .ok : .created)
        if replayed { response.headers[HTTPField.Name.idempotentReplayed] = "true" }
        return response
    }

    /// `GET /transfers/{id}` → the document; 404 unless it is the caller's.
    @Sendable func document(_ request: Request, context: AppRequestContext) async throws -> TransferDocument {
        try await transfers.transfer(payerId: try context.requireUser(), id: try context.parameters.require("id"))
            .document
    }

    /// `GET /transfers/{id}/events` → `text/event-stream` of the document's versions; with
    /// `Last-Event-ID: N`, every version after N first; 204 once the client has the final version.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let transfer = try await transfers.transfer(
            payerId: try context.requireUser(), id: try context.parameters.require("id"))
        var lastSent = max(0, transfer.sequence - 1)
        if let header = request.headers[.lastEventID] {
            guard let value = Int64(header.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw APIError(.invalidLastEventId, "Last-Event-ID must be a non-negative integer.")
            }
            lastSent = value
        }
        // Nothing more will ever come: 204 ends a browser's EventSource instead of its reconnecting for good.
        if transfer.status.isFinal, lastSent >= transfer.sequence {
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        let session = TransferEventStream.Session(
            accounts: accounts, userId: try context.requireUser(), token: context.sessionToken ?? "")
        let stream = TransferEventStream(
            database: database, feed: feed, configuration: configuration, transferId: transfer.id, lastSent: lastSent,
            session: session)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody { [metrics] writer in
                // Counted while the body is written: from the first byte until the stream ends or the client goes.
                metrics.streamOpened()
                defer { metrics.streamClosed() }
                try await stream.write(to: &writer)
            }
        )
    }

    /// `POST /transfers/{id}/authorization` with an AuthenticationResponseJSON → the document, `AUTHORIZED`.
    @Sendable func authorize(_ request: Request, context: AppRequestContext) async throws -> TransferDocument {
        var request = request
        let body = try await request.decodeJSON(as: AuthenticationResponseJSON.self, context: context)
        return try await transfers.authorize(
            payerId: try context.requireUser(), id: try context.parameters.require("id"), body, session: context.session
        ).document
    }

    /// `POST /transfers/{id}/decline` → the document, `DECLINED`.
    @Sendable func decline(_ request: Request, context: AppRequestContext) async throws -> TransferDocument {
        try await transfers.decline(payerId: try context.requireUser(), id: try context.parameters.require("id"))
            .document
    }

    /// `POST /transfers/{id}/cancel` → the document, `CANCELLED`.
    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> TransferDocument {
        try await transfers.cancel(payerId: try context.requireUser(), id: try context.parameters.require("id"))
            .document
    }

    static func json(_ document: TransferDocument, status: HTTPResponse.Status) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: try CanonicalJSON.string(document)))
        )
    }
}

extension HTTPField.Name {
    static let lastEventID = Self("Last-Event-ID")!
}

extension TransferDocument: ResponseEncodable {}
