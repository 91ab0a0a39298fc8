import CountersignAPI
import Foundation
import HTTPTypes
import Hummingbird

extension APIError: HTTPResponseError {
    /// The status of its code.
    package var status: HTTPResponse.Status { code.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try response(status: status, traceId: context.traceId)
    }

    /// The body of its response.
    package func body(traceId: String?) -> ErrorResponse {
        ErrorResponse(
            error: .init(
                code: code, message: message, retryAfter: retryAfter, traceId: traceId, available: available,
                limit: limit))
    }

    /// `{"error": {"code", "message", "retryAfter"?, "traceId"?, "available"?}}` with `status`, `Retry-After` and
    /// `Allow` as the error carries them.
    func response(status: HTTPResponse.Status, traceId: String?) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let allow { headers[.allow] = allow.joined(separator: ", ") }
        let data = try JSONEncoder().encode(body(traceId: traceId))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A refusal about the resource a path names, sent as 404 whatever its code's status. openapi.yaml
/// documents one: revoking a device key the user does not have is 404 `unknown_credential`, while
/// an assertion from such a key is 401 with the same code.
struct MissingResource: HTTPResponseError {
    let error: APIError
    var status: HTTPResponse.Status { .notFound }
    func body(traceId: String?) -> ErrorResponse { error.body(traceId: traceId) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try error.response(status: status, traceId: context.traceId)
    }
}
