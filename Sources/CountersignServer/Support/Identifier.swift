import Crypto
import WebAuthn

/// Random identifiers and secrets.
package enum Identifier {
    /// A prefixed id with 120 bits of randomness, e.g. `tx_3kq…`.
    package static func make(_ prefix: String) -> String {
        prefix + "_" + Base64URL.encode(randomBytes(15))
    }

    /// `count` bytes from the system's secure random generator.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// SHA-256 of `text`, base64url: how bearer secrets are stored, so a database leak reveals none.
    package static func digest(_ text: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(text.utf8))))
    }
}
