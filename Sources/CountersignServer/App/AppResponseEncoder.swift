import Foundation
import Hummingbird

/// How route results (`ResponseEncodable`) become JSON responses: Hummingbird's default
/// `JSONEncoder` (ISO 8601 dates, keys sorted), plus a hook the tests set to see each value as a Swift value, so
/// that openapi.yaml is checked against every member a response type declares, not only the ones
/// the bytes happen to carry (`JSONEncoder` leaves out a nil optional). Outside the tests the hook
/// is nil and costs one comparison.
package struct AppResponseEncoder: ResponseEncoder, Sendable {
    /// Called with each response body before it is sent.
    package var observer: (@Sendable (any Encodable) -> Void)?

    package init() {}

    package func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws
        -> Response
    {
        observer?(value)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        // One value, one text: a retry answered with the resource its key made (a transfer, a
        // funding, a refund) is then the first answer byte for byte while the resource is unchanged.
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value, from: request, context: context)
    }

    /// Shows the observer a body that is encoded another way (a fixed key order, stored bytes).
    package func observe(_ value: some Encodable) {
        observer?(value)
    }

    /// The response to a thrown `error`; its body, when it has one (`HTTPErrorBody`), is shown to the observer.
    package func response(to error: any HTTPResponseError, from request: Request, context: some RequestContext)
        throws -> Response
    {
        if let observer, let error = error as? any HTTPErrorBody { observer(error.body(traceId: context.traceId)) }
        return try error.response(from: request, context: context)
    }
}

/// An error whose response carries a JSON body encoded from `body(traceId:)`.
package protocol HTTPErrorBody: HTTPResponseError {
    associatedtype Body: Encodable
    /// The body of its response to the request traced as `traceId`.
    func body(traceId: String?) -> Body
}

extension RequestContext {
    /// The request's trace id (`RequestRecordMiddleware`), which error bodies carry.
    var traceId: String? { (self as? AppRequestContext)?.record.traceId }
}
