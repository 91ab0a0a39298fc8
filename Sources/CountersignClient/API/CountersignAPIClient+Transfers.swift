import CountersignAPI

extension CountersignAPIClient {
    /// `POST /transfers`: starts a transfer. One `Idempotency-Key` (fresh unless given) covers the
    /// SDK's retries, so a lost answer never creates a second transfer.
    public func createTransfer(_ body: CreateTransferRequest, idempotencyKey: String? = nil) async throws
        -> TransferDocument
    {
        try await create(.createTransfer, json: body, idempotencyKey: idempotencyKey)
    }

    /// `GET /transfers/{id}`: the transfer as it stands.
    public func transfer(id: String) async throws -> TransferDocument {
        try await call(request(.transfer, [id]))
    }

    /// `POST /transfers/{id}/authorization`: sends the device's assertion over the quote's challenge.
    public func authorizeTransfer(id: String, assertion: AuthenticationResponseJSON) async throws -> TransferDocument {
        try await call(request(.authorizeTransfer, [id], json: assertion))
    }

    /// `POST /transfers/{id}/decline`: the payer refuses the fees.
    public func declineTransfer(id: String) async throws -> TransferDocument {
        try await call(request(.declineTransfer, [id]))
    }

    /// `POST /transfers/{id}/cancel`: the payer abandons the transfer before authorizing it.
    public func cancelTransfer(id: String) async throws -> TransferDocument {
        try await call(request(.cancelTransfer, [id]))
    }

    /// `GET /transfers/{id}/events`: one connection's server-sent events, resuming after
    /// `lastEventId` when given. A non-2xx answer throws; a dropped connection, or one silent for a
    /// window of `streamIdleLimit`, ends the stream with an error. `TransactionRepository.documents` adds the reconnecting.
    public func transferEvents(id: String, lastEventId: Int64? = nil) async throws -> AsyncThrowingStream<
        ServerSentEvent, any Error
    > {
        var headers = ["Accept": "text/event-stream"]
        if let lastEventId { headers["Last-Event-ID"] = String(lastEventId) }
        let outgoing = try request(.transferEvents, [id], headers: headers)
        let response = try await reach { try await transport.stream(outgoing) }
        guard (200..<300).contains(response.status) else {
            let body = (try? await response.collect()) ?? []
            throw CountersignClientError.fromResponse(status: response.status, headers: response.headers, body: body)
        }
        return ServerSentEventParser.events(in: response.body(idleLimit: streamIdleLimit, wait: idleWait))
    }
}
