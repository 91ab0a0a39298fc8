import CountersignCore

/// `POST /transfers` body, sent with an `Idempotency-Key` header.
public struct CreateTransferRequest: Codable, Sendable, Equatable {
    /// Who receives the money: a registered user's phone number.
    public var payeePhone: String
    /// What the payee receives, in minor units; the fees come on top.
    public var amount: Int64
    /// The currency; the payer's and the payee's wallets must hold it.
    public var currency: String
    /// A note for the payee, at most 140 characters.
    public var note: String?
    /// A request with every field given.
    public init(payeePhone: String, amount: Int64, currency: String, note: String? = nil) {
        self.payeePhone = payeePhone
        self.amount = amount
        self.currency = currency
        self.note = note
    }
}

/// What the payer's device must sign to authorize a transfer: WebAuthn request options whose
/// challenge is `SHA-256(nonce ‖ canonical quote)`.
public struct TransferChallenge: Codable, Sendable, Equatable {
    /// The challenge, base64url.
    public var challenge: String
    /// The nonce the challenge was made with, base64url, so the device can recompute it.
    public var nonce: String
    /// The relying party id to sign for.
    public var rpId: String
    /// The payer's usable credentials.
    public var allowCredentials: [CredentialDescriptor]
    /// `required` or `preferred`.
    public var userVerification: String
    /// Milliseconds the device has.
    public var timeout: Int
    /// What to pass to Secure Payment Confirmation for this challenge, where the browser offers it.
    public var securePaymentConfirmation: SecurePaymentConfirmationData?
    /// A challenge with every field given.
    public init(
        challenge: String, nonce: String, rpId: String, allowCredentials: [CredentialDescriptor],
        userVerification: String, timeout: Int,
        securePaymentConfirmation: SecurePaymentConfirmationData? = nil
    ) {
        self.challenge = challenge
        self.nonce = nonce
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.timeout = timeout
        self.securePaymentConfirmation = securePaymentConfirmation
    }
}

/// Why a transfer ended in `FAILED`.
public struct TransferFailure: Codable, Sendable, Equatable {
    /// A stable machine code, an `ErrorCode`'s raw value, e.g. `payee_not_found`, `insufficient_funds`,
    /// `authorization_failed`. Kept as received, so a code from a newer server still decodes;
    /// `errorCode` is the typed form.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// A failure with the code as received.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
    /// A failure with one of the server's codes.
    public init(_ code: ErrorCode, message: String) {
        self.init(code: code.rawValue, message: message)
    }
    /// The code, if this build knows it.
    public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }
}

/// A transfer as a live document: `GET /transfers/{id}` returns it, and
/// `GET /transfers/{id}/events` streams every version of it.
public struct TransferDocument: Codable, Sendable, Equatable {
    /// The transfer id.
    public var id: String
    /// Where it is; only the server changes it.
    public var status: TransferStatus
    /// The payee's phone, canonical.
    public var payeePhone: String
    /// The payee's name, once the lookup found them.
    public var payeeName: String?
    /// What the payee receives, in minor units.
    public var amount: Int64
    /// The currency.
    public var currency: String
    /// The payer's note.
    public var note: String?
    /// The fees, from `AUTHORIZATION_REQUIRED` on.
    public var quote: TransferQuote?
    /// What to sign, while `AUTHORIZATION_REQUIRED`.
    public var challenge: TransferChallenge?
    /// Why it failed, when `FAILED`.
    public var error: TransferFailure?
    /// The version: 1 at creation, one more for every change. SSE events carry it as their id.
    public var sequence: Int64
    /// Creation time, ISO 8601 UTC.
    public var createdAt: String
    /// Time of the last change, ISO 8601 UTC.
    public var updatedAt: String
    /// A document with every field given.
    public init(
        id: String, status: TransferStatus, payeePhone: String, payeeName: String?, amount: Int64, currency: String,
        note: String?,
        quote: TransferQuote?, challenge: TransferChallenge?, error: TransferFailure?, sequence: Int64,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.status = status
        self.payeePhone = payeePhone
        self.payeeName = payeeName
        self.amount = amount
        self.currency = currency
        self.note = note
        self.quote = quote
        self.challenge = challenge
        self.error = error
        self.sequence = sequence
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
