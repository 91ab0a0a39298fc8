import Foundation
import Hummingbird
import Logging

/// The outermost middleware: every error leaves as JSON with a stable code and that code's status
/// (`ErrorCode.status`). Our own `APIError`s pass through; Hummingbird's (unknown route, body too
/// large) are given codes; a payment provider's keep theirs (502 when it is unavailable); anything
/// else is logged with its cause and answered with a bare 500.
package struct ErrorMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    /// The router's paths and their methods, for 405.
    let routes: RouteMethods

    package init(routes: RouteMethods) {
        self.routes = routes
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as MissingResource {
            throw error
        } catch is PinChecksBusy {
            throw APIError.pinChecksBusy
        } catch is PinHashRefused {
            throw APIError.serverBusy
        } catch let failure as VerificationFailure {
            return try failure.response(from: request, context: context)
        } catch let error as HTTPError {
            if error.status == .notFound, case let allowed = routes.allowed(for: request.uri.path), !allowed.isEmpty {
                throw APIError(
                    .methodNotAllowed, "This path answers \(allowed.joined(separator: ", ")) only.", allow: allowed)
            }
            throw Self.translate(error)
        } catch let refused as ProviderError {
            // The payment provider's refusal or unavailability (502), with its own code.
            if refused.code.status.code >= 500 {
                context.logger.error(
                    "payment provider unavailable", metadata: ["error": "\(refused)", "path": "\(request.uri.path)"])
            }
            throw APIError(refused.code, refused.message)
        } catch {
            context.logger.error(
                "unhandled error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            throw APIError(.internalError, "Something went wrong on our side. Nothing was charged twice; try again.")
        }
    }

    /// Hummingbird's own errors in our shape.
    static func translate(_ error: HTTPError) -> APIError {
        switch error.status.code {
        case 404: APIError(.notFound, "No such endpoint.")
        case 405: APIError(.methodNotAllowed, "That method is not allowed here.")
        case 413: APIError(.bodyTooLarge, "The request body is too large.")
        case 400..<500: APIError(.badRequest, error.body ?? "The request is malformed.")
        default: APIError(.internalError, "Something went wrong on our side.")
        }
    }
}

extension VerificationFailure: HTTPResponseError {
    package var status: HTTPResponse.Status { error.status }

    /// `{verified: false, message, code, retryAfter?, traceId?}`.
    package func body(traceId: String?) -> AuthenticationVerifyResponseBody {
        AuthenticationVerifyResponseBody(
            verified: false, message: error.message, code: error.code.rawValue, retryAfter: error.retryAfter,
            traceId: traceId)
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(
            status: error.status, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(body(traceId: context.traceId)))))
    }
}

/// The verify endpoint's failure body, the seed's `{verified: false, message}` plus `code`.
package struct AuthenticationVerifyResponseBody: Encodable {
    let verified: Bool
    let message: String
    let code: String
    let retryAfter: Int?
    let traceId: String?
}
