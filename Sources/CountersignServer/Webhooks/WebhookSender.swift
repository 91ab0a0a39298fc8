import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// What one attempt came to: the receiver's status, or why there was none.
struct WebhookAttemptResult: Sendable {
    let statusCode: Int64?
    let error: String?
    /// The target is not allowed: no connection was made.
    let refused: Bool

    /// Standard Webhooks: any 2xx is a success.
    var succeeded: Bool { statusCode.map { (200..<300).contains($0) } ?? false }
}

/// Sends one signed webhook: a POST of the stored body to the endpoint's URL, resolved and checked by
/// `WebhookTargetPolicy` first and connected to the checked address. Redirects are not followed (a
/// 3xx is a failure), at most `maxResponseBytes` of the answer are read, and the whole attempt has
/// `timeout`.
struct WebhookSender: Sendable {
    let policy: WebhookTargetPolicy
    let timeout: TimeAmount

    /// The most of a receiver's answer that is read; the rest is dropped.
    static let maxResponseBytes = 4096

    func send(_ delivery: WebhookDelivery, timestamp: Int64) async -> WebhookAttemptResult {
        guard let signer = WebhookSigner(secret: delivery.secret) else {
            return WebhookAttemptResult(
                statusCode: nil, error: "the endpoint's secret is not a whsec_ secret", refused: true)
        }
        guard policy.refusal(of: delivery.url) == nil, let host = URLComponents(string: delivery.url)?.host else {
            return WebhookAttemptResult(
                statusCode: nil, error: "the endpoint's URL is no longer allowed", refused: true)
        }
        let address: String
        do {
            address = try await policy.address(for: host)
        } catch {
            return WebhookAttemptResult(statusCode: nil, error: "\(error)", refused: true)
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: timeout))
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        configuration.dnsOverride = [bare: address]
        // A client per attempt: its DNS override pins this attempt to the address just checked.
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
        let result = await post(delivery, signer: signer, timestamp: timestamp, with: client)
        try? await client.shutdown()
        return result
    }

    private func post(_ delivery: WebhookDelivery, signer: WebhookSigner, timestamp: Int64, with client: HTTPClient)
        async -> WebhookAttemptResult
    {
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "Countersign-Webhooks/1")
        for (name, value) in signer.headers(id: delivery.eventId, timestamp: timestamp, body: delivery.payload) {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(string: delivery.payload))
        do {
            let response = try await client.execute(request, timeout: timeout)
            var read = 0
            for try await chunk in response.body {
                read += chunk.readableBytes
                if read >= Self.maxResponseBytes { break }
            }
            return WebhookAttemptResult(statusCode: Int64(response.status.code), error: nil, refused: false)
        } catch {
            return WebhookAttemptResult(
                statusCode: nil, error: String(describing: error).prefix(200).description, refused: false)
        }
    }
}
