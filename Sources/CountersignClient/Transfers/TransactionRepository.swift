import CountersignAPI

/// The SDK's one source of transfers: it sends the payer's commands and watches the server move
/// each transfer through its statuses (the seed's `TransactionRepository`).
public struct TransactionRepository: Sendable {
    /// The API the repository talks to.
    public let client: CountersignAPIClient
    /// How `documents` reconnects after a dropped connection.
    public let reconnect: ReconnectPolicy

    /// A repository over `client`.
    public init(client: CountersignAPIClient, reconnect: ReconnectPolicy = .standard) {
        self.client = client
        self.reconnect = reconnect
    }

    /// Starts a transfer; it begins in `PENDING_PAYEE_LOOKUP`.
    public func create(_ request: CreateTransferRequest) async throws -> TransferDocument {
        try await client.createTransfer(request)
    }

    /// The transfer as it stands now.
    public func document(_ transferId: String) async throws -> TransferDocument {
        try await client.transfer(id: transferId)
    }

    /// Sends the device's assertion over the transfer's challenge.
    public func authorize(_ transferId: String, assertion: AuthenticationResponseJSON) async throws -> TransferDocument
    {
        try await client.authorizeTransfer(id: transferId, assertion: assertion)
    }

    /// Refuses the quoted fees; the transfer ends `DECLINED`.
    public func decline(_ transferId: String) async throws -> TransferDocument {
        try await client.declineTransfer(id: transferId)
    }

    /// Abandons the transfer before authorizing it; it ends `CANCELLED`.
    public func cancel(_ transferId: String) async throws -> TransferDocument {
        try await client.cancelTransfer(id: transferId)
    }
}
