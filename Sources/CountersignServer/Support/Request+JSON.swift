import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// The whole body, refused with 413 past the context's limit.
    package mutating func bodyBytes(context: AppRequestContext) async throws -> ByteBuffer {
        do {
            return try await collectBody(upTo: context.maxUploadSize)
        } catch {
            throw APIError(.bodyTooLarge, "The request body must be at most \(context.maxUploadSize) bytes.")
        }
    }

    /// Decodes a JSON body, turning every decoding failure into a 400 that names the field, and
    /// refusing control characters in its strings (`ControlCharacters`).
    package mutating func decodeJSON<T: Decodable>(as type: T.Type, context: AppRequestContext) async throws -> T {
        try JSONBody.decode(type, from: try await jsonBodyBytes(context: context))
    }

    /// The whole body of a request that must be JSON: anything but `Content-Type: application/json`
    /// is 415 before the body is read. A browser sends `text/plain`, form and multipart bodies
    /// cross-site without asking (no CORS preflight); `application/json` it never sends unasked.
    package mutating func jsonBodyBytes(context: AppRequestContext) async throws -> ByteBuffer {
        guard JSONBody.isJSON(contentType: headers[.contentType]) else {
            throw APIError(.unsupportedMediaType, "The request body must be sent as Content-Type: application/json.")
        }
        return try await bodyBytes(context: context)
    }
}

/// JSON decoding with errors clients can act on.
package enum JSONBody {
    /// Whether a `Content-Type` names JSON: `application/json`, any case, with parameters allowed.
    /// The media type is what comes before the first `;`, less spaces and tabs around it (HTTP's
    /// optional white space), compared in ASCII without regard to case.
    package static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let value = contentType.utf8
        var end = value.firstIndex(of: UInt8(ascii: ";")) ?? value.endIndex
        var start = value.startIndex
        while start < end, isOptionalWhiteSpace(value[start]) { start = value.index(after: start) }
        while end > start, isOptionalWhiteSpace(value[value.index(before: end)]) { end = value.index(before: end) }
        let mediaType = value[start..<end]
        guard mediaType.count == jsonMediaType.count else { return false }
        return zip(mediaType, jsonMediaType).allSatisfy { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
        }
    }

    private static let jsonMediaType = Array("application/json".utf8)

    private static func isOptionalWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `buffer` decoded as `T`; a control character in any of its strings is refused unless
    /// `refusingControlCharacters` is false (a provider's signed document, not a client's text).
    package static func decode<T: Decodable>(
        _ type: T.Type, from buffer: ByteBuffer, refusingControlCharacters: Bool = true
    ) throws -> T {
        guard buffer.readableBytes > 0 else { throw APIError(.invalidJSON, "The request body must be a JSON object.") }
        let bytes = Array(buffer.readableBytesView)
        let value: T
        do {
            if let scannable = type as? any ScannedJSON.Type, let scanned = scannable.scanned(bytes) as? T {
                value = scanned
            } else {
                value = try JSONDecoder().decode(type, from: Data(bytes))
            }
        } catch let error as DecodingError {
            throw describe(error, body: buffer)
        } catch {
            throw APIError(.invalidJSON, "The request body is not valid JSON.")
        }
        // Only what the endpoint reads is judged: members it does not know are ignored, whatever they
        // hold (the spec allows them). The scan is one pass; a hit re-encodes the decoded value.
        if refusingControlCharacters, ControlCharacters.holdsControl(json: bytes) {
            if let known = value as? any Encodable, let encoded = try? JSONEncoder().encode(known) {
                try ControlCharacters.refuse(inJSON: encoded)
            } else {
                try ControlCharacters.refuse(inJSON: buffer.readableBytesView)
            }
        }
        return value
    }

    static func describe(_ error: DecodingError, body: ByteBuffer) -> APIError {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
                separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return APIError(.missingField, "\(path(context.codingPath, key)) is required.")
        case .valueNotFound(_, let context):
            return APIError(.missingField, "\(path(context.codingPath)) must not be null.")
        case .typeMismatch(let expected, let context):
            return APIError(.invalidType, "\(path(context.codingPath)) must be of type \(expected).")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Foundation reports an unrepresentable number (5.5 or 1e30 for an integer) without a
            // path; if the document itself parses, the fault is a value, not the syntax.
            if (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) != nil {
                return APIError(.invalidValue, "A field has a value of the wrong kind: \(context.debugDescription)")
            }
            return APIError(.invalidJSON, "The request body is not valid JSON.")
        case .dataCorrupted(let context):
            return APIError(.invalidValue, "\(path(context.codingPath)) has an invalid value.")
        @unknown default:
            return APIError(.invalidJSON, "The request body is not valid JSON.")
        }
    }
}
