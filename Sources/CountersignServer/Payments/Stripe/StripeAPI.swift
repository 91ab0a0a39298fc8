import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// A refusal from Stripe: the HTTP status and Stripe's error object.
struct StripeRequestError: Error, Sendable {
    let status: Int
    let failure: StripeObject.Failure
}

/// Stripe's REST API over AsyncHTTPClient: form-encoded bodies, the secret key as a bearer token,
/// the API version pinned, an `Idempotency-Key` where the caller gives one. Answers are decoded;
/// Stripe's refusals are thrown as `StripeRequestError`; no answer at all (refused connection,
/// timeout, a body that is not Stripe's) is `ProviderError.providerUnavailable`. The key, bodies and
/// headers are never logged.
struct StripeAPI: Sendable {
    let configuration: StripeConfiguration
    let http: HTTPClient
    let logger: Logger

    /// `POST path` with `form` as the body.
    func post<T: Decodable>(
        _ path: String, _ form: StripeForm = StripeForm(), idempotencyKey: String? = nil, as type: T.Type = T.self
    ) async throws -> T {
        try await send(.POST, path, body: form, idempotencyKey: idempotencyKey)
    }

    /// `GET path?query`.
    func get<T: Decodable>(_ path: String, query: StripeForm = StripeForm(), as type: T.Type = T.self) async throws -> T
    {
        try await send(.GET, query.fields.isEmpty ? path : path + "?" + query.encoded, body: nil, idempotencyKey: nil)
    }

    private func send<T: Decodable>(
        _ method: HTTPMethod, _ path: String, body form: StripeForm?, idempotencyKey: String?
    ) async throws -> T {
        var request = HTTPClientRequest(url: configuration.baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.secretKey)")
        request.headers.add(name: "Stripe-Version", value: StripeConfiguration.apiVersion)
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form.encoded))
        }
        let route = "\(method.rawValue) \(path.split(separator: "?").first ?? "")"
        let status: Int
        let body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: TimeAmount(configuration.timeout))
            status = Int(response.status.code)
            body = try await response.body.collect(upTo: 1 << 20)
            logger.debug(
                "stripe answered",
                metadata: [
                    "route": "\(route)", "status": "\(status)",
                    "request_id": "\(response.headers.first(name: "Request-Id") ?? "-")",
                    "replayed": "\(response.headers.first(name: "Idempotent-Replayed") ?? "false")",
                ])
        } catch {
            logger.error("stripe could not be reached", metadata: ["route": "\(route)", "error": "\(error)"])
            throw ProviderError.providerUnavailable
        }
        let data = Data(body.readableBytesView)
        if (200..<300).contains(status), let decoded = try? JSONDecoder().decode(T.self, from: data) { return decoded }
        if let refusal = try? JSONDecoder().decode(StripeObject.ErrorBody.self, from: data) {
            // A decline, a missing object or a cancel too late is an outcome; anything else is worth a look.
            if status != 402, status != 404, refusal.error.code != "payment_intent_unexpected_state" {
                logger.log(
                    level: status == 400 ? .warning : .error, "stripe refused",
                    metadata: [
                        "route": "\(route)", "status": "\(status)", "type": "\(refusal.error.type)",
                        "message": "\(redacted(refusal.error.message ?? ""))",
                    ]
                )
            }
            throw StripeRequestError(status: status, failure: refusal.error)
        }
        logger.error("stripe's answer could not be read", metadata: ["route": "\(route)", "status": "\(status)"])
        throw ProviderError.providerUnavailable
    }

    /// `text` with the secret key cut out, should Stripe ever echo it.
    func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: configuration.secretKey, with: "[redacted]")
    }
}
