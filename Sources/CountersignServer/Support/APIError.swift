import CountersignAPI
import Foundation
import HTTPTypes
import Hummingbird

/// Every refusal the API makes: an HTTP status, a stable machine code and a message, rendered as
/// `{"error": {"code", "message"}}`.
package struct APIError: HTTPResponseError, Sendable, Equatable {
    package let status: HTTPResponse.Status
    package let code: String
    package let message: String
    package var retryAfter: Int?
    /// The methods a path does answer, sent as `Allow` with 405.
    package var allow: [String]?

    package init(_ status: HTTPResponse.Status, _ code: String, _ message: String, retryAfter: Int? = nil, allow: [String]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.allow = allow
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let allow { headers[.allow] = allow.joined(separator: ", ") }
        let body = ErrorResponse(error: .init(code: code, message: message, retryAfter: retryAfter))
        let data = try JSONEncoder().encode(body)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    /// 400: the body or a field is malformed; `field` names it.
    package static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    /// 401: no valid session.
    package static let unauthenticated = APIError(.unauthorized, "unauthenticated", "A valid session token is required.")
    /// 401: the payment factor (PIN or device signature) did not check out. Never says which.
    package static let authorizationFailed = APIError(.unauthorized, "authorization_failed", "Payment authorization failed.")
    /// 404.
    package static func notFound(_ code: String = "not_found", _ message: String = "No such resource.") -> APIError { APIError(.notFound, code, message) }
    /// 422: understood but refused.
    package static func unprocessable(_ code: String, _ message: String) -> APIError { APIError(.unprocessableContent, code, message) }
    /// 409: conflicts with the current state.
    package static func conflict(_ code: String, _ message: String) -> APIError { APIError(.conflict, code, message) }
    /// 423: payment authorization locked after repeated failures.
    package static func paymentLocked(retryAfter: Int) -> APIError {
        APIError(.locked, "payment_locked", "Too many failed payment authorizations. Try again later.", retryAfter: retryAfter)
    }
}

extension APIError: CustomStringConvertible {
    /// `code: message`, as the operator commands print it.
    package var description: String { "\(code): \(message)" }
}

extension HTTPResponse.Status {
    /// 423: an action locked after repeated failures (payments, the PIN, login).
    package static let locked = HTTPResponse.Status(code: 423, reasonPhrase: "Locked")
}
