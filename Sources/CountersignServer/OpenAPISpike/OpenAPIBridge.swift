import Foundation
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Spike (issue 11): what the generated handlers cannot see, and what they would answer
/// differently, kept as the hand-written routes have it.
///
/// - The generated `APIProtocol` methods get neither the Hummingbird request nor its context, so
///   the session's user and the client address (for the throttle) travel in `OpenAPIRequest.current`,
///   the way Hummingbird's OpenAPI template passes its context.
/// - Content type (415) and body size (413) are checked before the generated code reads the body,
///   with the hand-written codes; the transport itself enforces neither.
/// - The generated server wraps every error in `ServerError`; the cause is rethrown so
///   `ErrorMiddleware` answers as before. Decoding failures get the hand-written codes where the
///   runtime says enough to tell them apart.
struct OpenAPIBridge: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The path whose failures use the verification failure shape, not the general error body.
    static let verifyPath = "/biometric/auth/verify"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        let verify = request.uri.path == Self.verifyPath
        var body = ByteBuffer()
        if request.method == .post {
            do {
                body = try await request.jsonBodyBytes(context: context)
            } catch let error as APIError where verify {
                throw VerificationFailure(error: error)
            }
        }
        do {
            return try await OpenAPIRequest.$current.withValue(OpenAPIRequest(request: request, context: context)) {
                try await next(request, context)
            }
        } catch let error as ServerError {
            let cause = Self.cause(of: error, body: body)
            if verify, let refusal = cause as? APIError { throw VerificationFailure(error: refusal) }
            throw cause
        }
    }

    /// The error to answer with: the handler's own, or a 400 for a request the generated code refused.
    static func cause(of error: ServerError, body: ByteBuffer) -> any Error {
        switch error.underlyingError {
        case let decoding as DecodingError:
            return JSONBody.describe(decoding, body: body)
        case let other where error.operationOutput == nil && error.operationInput == nil:
            // The runtime's own errors (internal type): missing parameter, unparsable value, body.
            let text = String(describing: other)
            if let name = text.split(separator: "named: ").last, text.hasPrefix("Missing required") {
                return APIError.badRequest("missing_field", "\(name) is required.")
            }
            return APIError.badRequest("invalid_value", text)
        case let other:
            return other
        }
    }
}

/// The Hummingbird request and context of the operation being handled, for the generated handlers.
struct OpenAPIRequest: Sendable {
    let request: Request
    let context: AppRequestContext

    @TaskLocal static var current: OpenAPIRequest?

    /// The current request; only set inside `OpenAPIBridge`.
    static func require() throws -> OpenAPIRequest {
        guard let current else { throw APIError(.internalServerError, "internal_error", "No request context.") }
        return current
    }
}
