import CountersignServer
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Checks every response the application sends against openapi.yaml, as the outermost middleware
/// (`CountersignApp.build(outermost:)`): for the operation the router matched, the status must be
/// documented, the `Content-Type` must be one the spec lists for it (no body where it lists none),
/// and a JSON body must match the schema, with no member the schema does not list. What does not conform is collected in `violations`;
/// `LiveServer.run` fails the test that provoked it. Requests that match no operation (an unknown
/// path, a wrong method, the web app's files) are not checked.
///
/// The bytes show only the members a test sets: `JSONEncoder` leaves a nil optional out. So the
/// body is also decoded as the Swift type it was written from (`ResponseTypes`) and written again by
/// `ShadowEncoder` with every declared member, nil ones as null; a member the schema does not list is
/// reported even when no test ever sets it.
struct ResponseContract: RouterMiddleware {
    typealias Context = AppRequestContext
    let document: OpenAPIDocument
    let violations: ContractViolations

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return await check(try await next(request, context), to: request, context: context)
        } catch let error as any HTTPResponseError {
            // Hummingbird turns it into this response after us; check that one, then let it.
            _ = await check(
                try error.response(from: request, context: context), to: request,
                context: context)
            throw error
        }
    }

    /// The response, unchanged for the client; its body is read into memory to be checked, except
    /// for an event stream, which never ends by itself.
    private func check(_ response: Response, to request: Request, context: Context) async -> Response {
        // The route the router matched; none when a middleware answered before it (a refused
        // Origin), then the document's template for the path. The router's "NotFound" is no operation.
        guard let template = context.endpointPath ?? document.template(matching: request.uri.path),
            let operation = document.operation(request.method.rawValue, template)
        else { return response }
        let exchange = "\(request.method) \(request.uri.path) (\(template)) → \(response.status.code)"
        let contentType = response.headers[.contentType].map {
            $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        }
        if contentType == "text/event-stream" {
            violations.add(contentProblems(operation, response.status.code, contentType, body: nil), exchange)
            return response
        }
        let collector = BodyCollector()
        do {
            try await response.body.write(collector)
        } catch {
            violations.add(["the body could not be read: \(error)"], exchange)
            return response
        }
        let shadow = ResponseTypes.shadow(
            method: request.method.rawValue, template: template, status: response.status.code, body: collector.bytes)
        violations.add(
            contentProblems(operation, response.status.code, contentType, body: collector.bytes, shadow: shadow),
            exchange)
        return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: collector.bytes))
    }

    /// What is wrong with a response of `status` and `contentType` carrying `body` (nil: not read),
    /// and with `shadow`, the value the body was encoded from, every declared member included.
    func contentProblems(
        _ operation: OpenAPIDocument.Operation, _ status: Int, _ contentType: String?, body: ByteBuffer?,
        shadow: ShadowRecorder.Tree? = nil
    ) -> [String] {
        let responses = operation.object["responses"] as? [String: Any] ?? [:]
        guard
            let declared = (responses["\(status)"] ?? responses["\(status / 100)XX"] ?? responses["default"])
                as? [String: Any]
        else {
            return [
                "status \(status) is not documented for \(operation.method) \(operation.path) (documented: \(responses.keys.sorted().joined(separator: ", ")))"
            ]
        }
        let content: [String: Any]
        do {
            content = try document.resolved(declared)["content"] as? [String: Any] ?? [:]
        } catch {
            return ["\(error)"]
        }
        guard !content.isEmpty else {
            return body.map { $0.readableBytes == 0 } == false
                ? ["a body where openapi.yaml documents none: \(Self.excerpt(body!))"] : []
        }
        guard let contentType, let media = content[contentType] as? [String: Any] else {
            return [
                "Content-Type \(contentType ?? "(none)") is not among the documented \(content.keys.sorted().joined(separator: ", "))"
            ]
        }
        guard let body, contentType == "application/json" || contentType.hasSuffix("+json") else { return [] }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView))
        } catch {
            return ["the body is not JSON: \(Self.excerpt(body))"]
        }
        guard let schema = media["schema"] as? [String: Any] else { return [] }
        var problems = JSONSchemaValidator(document: document, closedObjects: true).violations(
            of: value, against: schema)
        problems += shadowProblems(shadow, schema, beyond: problems)
        return problems.isEmpty ? [] : problems + ["body: \(Self.excerpt(body))"]
    }

    /// What the response type declares that `schema` does not admit, beyond what the body showed.
    private func shadowProblems(_ shadow: ShadowRecorder.Tree?, _ schema: [String: Any], beyond shown: [String])
        -> [String]
    {
        switch shadow {
        case nil: return []
        case .failure(let error): return ["the response value could not be written as a tree: \(error)"]
        case .success(let tree):
            let validator = JSONSchemaValidator(document: document, closedObjects: true, nullMeansAbsent: true)
            return validator.violations(of: tree, against: schema).filter { !shown.contains($0) }.map {
                "\($0) (declared by the response type)"
            }
        }
    }

    static func excerpt(_ body: ByteBuffer) -> String {
        let text = String(decoding: body.readableBytesView.prefix(400), as: UTF8.self)
        return body.readableBytes > 400 ? text + "…" : text
    }
}

/// What `ResponseContract` found, in the order the responses were sent.
final class ContractViolations: Sendable {
    private let found = Mutex<[String]>([])

    func add(_ problems: [String], _ exchange: String) {
        guard !problems.isEmpty else { return }
        found.withLock { $0.append("\(exchange): " + problems.joined(separator: "; ")) }
    }

    var all: [String] { found.withLock { $0 } }
}

/// A response body's value as `ShadowEncoder` writes it, or why it could not be written.
enum ShadowRecorder {
    typealias Tree = Result<JSONValue, Failure>
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func tree(of value: some Encodable) -> Tree {
        do {
            return .success(try ShadowEncoder.tree(of: value))
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }
}

/// Keeps what a response body writes, to check it and send it on.
private final class BodyCollector: ResponseBodyWriter {
    var bytes = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        bytes.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
