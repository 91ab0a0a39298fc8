import Crypto
import CryptoExtras

/// PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) through swift-crypto's `KDF.Insecure.PBKDF2`, the
/// implementation the server hashes account PINs with (BoringSSL on Linux, CommonCrypto on Apple).
///
/// A device PIN has at most a million values, so whatever is derived from it must be slow to
/// compute: callers use at least `PBKDF2.minimumIterations` outside tests.
package enum PBKDF2 {
    /// OWASP's 2023 floor for PBKDF2-HMAC-SHA256 is 600,000; 100,000 is the least this SDK ships
    /// with, chosen so one unlock stays well under a second on a phone.
    package static let minimumIterations = 100_000

    /// `keyByteCount` bytes derived from `password` and `salt` with `iterations` rounds.
    package static func sha256(password: [UInt8], salt: [UInt8], iterations: Int, keyByteCount: Int = 32) -> [UInt8] {
        precondition(iterations > 0 && keyByteCount > 0, "PBKDF2 needs at least one round and one byte")
        // The unchecked variant: swift-crypto's checked one refuses fewer than 210,000 rounds, and
        // the floor this SDK keeps is `minimumIterations`. With valid arguments, BoringSSL and
        // CommonCrypto fail only when memory allocation does; there is nothing to recover.
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: password, salt: salt, using: .sha256, outputByteCount: keyByteCount, unsafeUncheckedRounds: iterations
        )
        return key.withUnsafeBytes { Array($0) }
    }
}
