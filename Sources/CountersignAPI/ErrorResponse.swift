/// The body of every error but the biometric verify endpoint's: `{"error": {"code", "message"}}`.
public struct ErrorResponse: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Body: Codable, Sendable, Equatable {
        /// The stable machine code as received, e.g. `insufficient_funds`: kept as a string so that
        /// a code from a newer server still decodes. `errorCode` is the typed form.
        public var code: String
        /// A human-readable explanation.
        public var message: String
        /// Seconds until a locked action may be retried (423 only).
        public var retryAfter: Int?
        /// The request's trace id: quote it to the operator, who finds the request's log lines and
        /// trace by it.
        public var traceId: String?
        /// With a refusal to refund or reverse more than there is: the most that may be, in minor units.
        public var available: Int64?
        /// With `limit_exceeded`: which limit refused, and what remains of it.
        public var limit: LimitRefusal?
        /// An error body.
        public init(
            code: ErrorCode, message: String, retryAfter: Int? = nil, traceId: String? = nil, available: Int64? = nil,
            limit: LimitRefusal? = nil
        ) {
            self.code = code.rawValue
            self.message = message
            self.retryAfter = retryAfter
            self.traceId = traceId
            self.available = available
            self.limit = limit
        }

        /// The code as an `ErrorCode`, nil when it is one this build does not know (a newer server).
        public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }
    }
    /// The error.
    public var error: Body
    /// An error response.
    public init(error: Body) { self.error = error }
}
