import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Testing

/// Transfer documents, events and clients as the tests need them.
enum Fixture {
    static let transferId = "tr_1"
    static let payee = "+2348012345678"
    static let request = CreateTransferRequest(payeePhone: payee, amount: 10_000, currency: "NGN", note: "rent")

    static let quote = TransferQuote(
        quoteId: "q_1", transferId: transferId, payeePhone: payee, amount: 10_000,
        fees: [TransferQuote.Fee(name: "Transfer fee", amount: 50), TransferQuote.Fee(name: "VAT", amount: 4)],
        totalFees: 54, total: 10_054, currency: "NGN", expiresAt: "2026-01-01T00:05:00.000Z"
    )

    static let challenge = TransferChallenge(
        challenge: "Y2hhbGxlbmdl", nonce: "bm9uY2U", rpId: "localhost",
        allowCredentials: [CredentialDescriptor(id: "cred")], userVerification: "required", timeout: 60_000
    )

    static let assertion = AuthenticationResponseJSON(
        id: "cred", rawId: "cred",
        response: AssertionResponseJSON(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA")
    )

    /// The transfer at `sequence` in `status`, with the quote and challenge from `AUTHORIZATION_REQUIRED` on.
    static func document(
        _ status: TransferStatus, _ sequence: Int64, error: TransferFailure? = nil,
        quote: TransferQuote? = Fixture.quote
    ) -> TransferDocument {
        let quoted: Bool =
            switch status {
            case .pendingPayeeLookup, .pendingQuote: false
            default: true
            }
        return TransferDocument(
            id: transferId, status: status, payeePhone: payee, payeeName: sequence > 1 ? "Ada" : nil, amount: 10_000,
            currency: "NGN",
            note: "rent", quote: quoted ? quote : nil, challenge: status == .authorizationRequired ? challenge : nil,
            error: error,
            sequence: sequence, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:0\(sequence).000Z"
        )
    }

    /// `document` as JSON.
    static func json(_ document: TransferDocument) -> String {
        String(decoding: try! JSONEncoder().encode(document), as: UTF8.self)
    }

    /// `document` as one server-sent event, the way the server frames it.
    static func event(_ document: TransferDocument) -> String {
        "id: \(document.sequence)\ndata: \(json(document))\n\n"
    }

    /// The usual path up to the quote: lookup, quote pending, authorization required.
    static let upToQuote = [
        document(.pendingPayeeLookup, 1), document(.pendingQuote, 2), document(.authorizationRequired, 3),
    ]

    /// A client holding a session over `transport`, with predictable idempotency keys.
    static func client(_ transport: ScriptedTransport, idleLimit: Duration = .seconds(60)) -> CountersignAPIClient {
        CountersignAPIClient(
            transport: transport, sessionToken: "tok", streamIdleLimit: idleLimit, idempotencyKey: { "key-1" })
    }

    /// A repository over `transport` that reconnects at once, at most `attempts` times in a row.
    static func repository(_ transport: ScriptedTransport, attempts: Int = 2, idleLimit: Duration = .seconds(60))
        -> TransactionRepository
    {
        TransactionRepository(
            client: client(transport, idleLimit: idleLimit),
            reconnect: ReconnectPolicy(maxAttempts: attempts, initialDelay: .zero, maxDelay: .zero, sleep: { _ in }))
    }
}

extension ScriptedTransport {
    /// `POST /transfers` answered with the new transfer.
    func expectCreate() {
        expect("POST", "/transfers", status: 201, json: Fixture.json(Fixture.document(.pendingPayeeLookup, 1)))
    }

    /// The events stream of the fixture transfer, sending `documents`.
    func expectEvents(
        _ documents: [TransferDocument], end: StreamEnd = .open, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectStream(
            "/transfers/\(Fixture.transferId)/events", chunks: documents.map(Fixture.event), end: end,
            sourceLocation: sourceLocation)
    }
}
