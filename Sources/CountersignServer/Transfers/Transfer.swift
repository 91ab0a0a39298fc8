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
    /// Changed only by `moved(to:now:failure:)`, which the transfer state machine guards.
    package private(set) var status: TransferStatus
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

    /// A transfer with every field given, as created or as stored.
    package init(
        id: String, payerId: String, payeeId: String?, payeePhone: String, payeeName: String?, amount: Int64,
        currency: String, note: String?, status: TransferStatus, quote: TransferQuote?, quoteExpiresAt: Int64?,
        challenge: TransferChallenge?, failure: TransferFailure?, authorizedBy: String?, sequence: Int64,
        idempotencyKey: String, requestHash: String, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.payerId = payerId
        self.payeeId = payeeId
        self.payeePhone = payeePhone
        self.payeeName = payeeName
        self.amount = amount
        self.currency = currency
        self.note = note
        self.status = status
        self.quote = quote
        self.quoteExpiresAt = quoteExpiresAt
        self.challenge = challenge
        self.failure = failure
        self.authorizedBy = authorizedBy
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

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

    /// This transfer moved to `status` at `now`: one version later. A move the transfer state
    /// machine does not allow is 409 `invalid_state`, and changes nothing.
    package func moved(to status: TransferStatus, now: Int64, failure: TransferFailure? = nil) throws(APIError)
        -> Transfer
    {
        var next = self
        do { try next.status.move(to: status) } catch { throw stateRefusal }
        if let failure { next.failure = failure }
        next.sequence += 1
        next.updatedAt = now
        return next
    }

    /// The answer to a command the transfer's status does not allow.
    package var stateRefusal: APIError {
        APIError(.invalidState, "The transfer is \(status.rawValue); that command does not apply.")
    }
}
