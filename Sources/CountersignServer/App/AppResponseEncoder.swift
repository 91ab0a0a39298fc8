import CountersignCore
import Foundation
import Hummingbird

/// How route results (`ResponseEncodable`) become JSON responses: Hummingbird's default
/// `JSONEncoder` (ISO 8601 dates, keys sorted), or the same bytes written directly for the types
/// that offer it (`JSONWritable`).
package struct AppResponseEncoder: ResponseEncoder, Sendable {
    package init() {}

    package func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws
        -> Response
    {
        if let writable = value as? any JSONWritable {
            let bytes = writable.jsonBytes()
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(bytes.count)],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        // One value, one text: a retry answered with the resource its key made (a transfer, a
        // funding, a refund) is then the first answer byte for byte while the resource is unchanged.
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value, from: request, context: context)
    }
}

extension RequestContext {
    /// The request's trace id (`RequestRecordMiddleware`), which error bodies carry.
    var traceId: String? { (self as? AppRequestContext)?.record.traceId }
}
