import CountersignAPI

/// A refusal: what services, repositories and validators throw. It carries a stable `ErrorCode`
/// and a message, and no HTTP status: `ErrorCode.status` (App/ErrorCode+HTTPStatus.swift) gives
/// each code its status, and the error middleware renders it as `{"error": {"code", "message"}}`.
package struct APIError: Error, Sendable, Equatable {
    package let code: ErrorCode
    package let message: String
    /// Seconds until a locked or rate-limited action may be retried, sent in the body and as `Retry-After`.
    package var retryAfter: Int?
    /// The methods a path does answer, sent as `Allow` with `method_not_allowed`.
    package var allow: [String]?
    /// The most that may be refunded or reversed, in minor units, sent in the body with a refusal
    /// of more.
    package var available: Int64?
    /// With `limit_exceeded`: the limit that refused, sent in the body.
    package var limit: LimitRefusal?

    package init(
        _ code: ErrorCode, _ message: String, retryAfter: Int? = nil, allow: [String]? = nil, available: Int64? = nil,
        limit: LimitRefusal? = nil
    ) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.allow = allow
        self.available = available
        self.limit = limit
    }
}

extension APIError {
    /// No valid session.
    package static let unauthenticated = APIError(.unauthenticated, "A valid session token is required.")
    /// The payment factor (PIN or device signature) did not check out. Never says which.
    package static let authorizationFailed = APIError(.authorizationFailed, "Payment authorization failed.")
    /// Payment authorization locked after repeated failures.
    package static func paymentLocked(retryAfter: Int) -> APIError {
        APIError(.paymentLocked, "Too many failed payment authorizations. Try again later.", retryAfter: retryAfter)
    }
}

extension APIError: CustomStringConvertible {
    /// `code: message`, as the operator commands print it.
    package var description: String { "\(code.rawValue): \(message)" }
}
