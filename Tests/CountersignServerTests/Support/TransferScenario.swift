import CountersignAPI
import CountersignCore
import CountersignServer
import Foundation
import Testing
import WebAuthn

extension LiveServer {
    /// `POST /transfers` with an idempotency key (a fresh one unless given; none if `key` is "").
    func createTransfer(
        _ payer: TestUser, to payeePhone: String, amount: Int64 = 10_000, currency: String = "NGN", note: String? = nil,
        key: String = UUID().uuidString
    ) async throws -> APIResponse {
        let headers = key.isEmpty ? [] : [("Idempotency-Key", key)]
        return try await client.post(
            "/transfers", CreateTransferRequest(payeePhone: payeePhone, amount: amount, currency: currency, note: note),
            token: payer.token, headers: headers)
    }

    /// Creates a transfer and waits for the server to move it to a quote (or an end).
    func quotedTransfer(_ payer: TestUser, to payeePhone: String, amount: Int64 = 10_000) async throws
        -> TransferDocument
    {
        let created = try await createTransfer(payer, to: payeePhone, amount: amount)
        try #require(created.status == 201, "create transfer: \(created.status) \(created.text)")
        return try await awaitTransfer(payer, id: try created.decode(TransferDocument.self).id) {
            $0.status != .pendingPayeeLookup && $0.status != .pendingQuote
        }
    }

    /// Polls `GET /transfers/{id}` until `done` holds (10 s at most), and returns the last document.
    func awaitTransfer(
        _ payer: TestUser, id: String, timeout: Duration = .seconds(10), until done: (TransferDocument) -> Bool
    ) async throws -> TransferDocument {
        let deadline = ContinuousClock.now + timeout
        while true {
            let document = try await client.get("/transfers/\(id)", token: payer.token).decode(TransferDocument.self)
            if done(document) || ContinuousClock.now >= deadline { return document }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// The device's answer to the transfer's challenge.
    func transferAssertion(_ payer: TestUser, _ document: TransferDocument) throws -> AuthenticationResponseJSON {
        let challenge = try #require(document.challenge, "no challenge in \(document.status)")
        return try assertion(try #require(payer.device), challenge: challenge.challenge)
    }

    /// `POST /transfers/{id}/authorization`.
    func authorizeTransfer(_ payer: TestUser, _ document: TransferDocument, body: AuthenticationResponseJSON? = nil)
        async throws -> APIResponse
    {
        try await client.post(
            "/transfers/\(document.id)/authorization", try body ?? transferAssertion(payer, document),
            token: payer.token)
    }

    /// The balance of a system account, from its postings.
    func systemBalance(_ account: String) async throws -> Int64 {
        try await database.read { sql in
            try await sql.first(
                "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM postings WHERE account_id = $1",
                [.text(account)])?.int("total") ?? 0
        }
    }
}
