import CountersignAPI
import CountersignCore

/// A transfer as the server stores it: the live document plus what only the server sees.
package struct Transfer: Sendable, Equatable {
    package var id: String
    package var payerId: String
    package var payeeId: String?
    package var payeePhone: String
    package var payeeName: String?
    package var amount: Int64
    package var currency: String
    package var note: String?
    package var status: TransferStatus
    package var quote: TransferQuote?
    /// When the quote lapses, epoch milliseconds (the quote's `expiresAt`, to the second).
    package var quoteExpiresAt: Int64?
    package var challenge: TransferChallenge?
    package var failure: TransferFailure?
    /// The credential whose signature authorized it.
    package var authorizedBy: String?
    /// The version; every change adds one and writes a `transfer_events` row.
    package var sequence: Int64
    package var idempotencyKey: String
    /// SHA-256 of the canonical request, to tell a retry from a reuse of the key.
    package var requestHash: String
    package var createdAt: Int64
    package var updatedAt: Int64

    /// What the owner sees.
    package var document: TransferDocument {
        TransferDocument(
            id: id, status: status, payeePhone: payeePhone, payeeName: payeeName, amount: amount, currency: currency,
            note: note,
            quote: quote, challenge: status == .authorizationRequired ? challenge : nil, error: failure,
            sequence: sequence,
            createdAt: WallClock.iso8601(millis: createdAt), updatedAt: WallClock.iso8601(millis: updatedAt)
        )
    }

    /// This transfer moved to `status` at `now`: one version later.
    package func moved(to status: TransferStatus, now: Int64, failure: TransferFailure? = nil) -> Transfer {
        var next = self
        next.status = status
        if let failure { next.failure = failure }
        next.sequence += 1
        next.updatedAt = now
        return next
    }
}
