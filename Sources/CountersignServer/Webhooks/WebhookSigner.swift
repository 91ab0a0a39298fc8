import CountersignCodec
import Crypto
import Foundation

/// Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`,
/// where the key is the base64 after `whsec_` in the endpoint's secret and the timestamp is unix seconds.
package struct WebhookSigner: Sendable {
    let key: SymmetricKey

    /// The signer for a `whsec_…` secret; nil if it is not one.
    package init?(secret: String) {
        guard secret.hasPrefix(Self.prefix),
            let bytes = Data(base64Encoded: String(secret.dropFirst(Self.prefix.count))),
            !bytes.isEmpty
        else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` value for the message.
    package func signature(id: String, timestamp: Int64, body: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).\(body)".utf8), using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The headers of one attempt: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    package func headers(id: String, timestamp: Int64, body: String) -> [(String, String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature(id: id, timestamp: timestamp, body: body)),
        ]
    }

    /// A new secret: `whsec_` and 32 random bytes in base64.
    package static func makeSecret() -> String {
        prefix + Data(SecureRandom.bytes(32)).base64EncodedString()
    }

    static let prefix = "whsec_"
}
