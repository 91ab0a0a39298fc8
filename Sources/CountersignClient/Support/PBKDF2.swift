import Crypto

/// PBKDF2-HMAC-SHA256 (RFC 8018 §5.2), built on swift-crypto's HMAC because `_CryptoExtras` is
/// not a dependency of the SDK.
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
        // The keyed HMAC state is computed once and copied for every round (its hashers are copy-on-write).
        let prf = HMAC<SHA256>(key: SymmetricKey(data: password))
        var output: [UInt8] = []
        output.reserveCapacity(keyByteCount + 32)
        var blockIndex: UInt32 = 1
        while output.count < keyByteCount {
            // U1 = PRF(P, S ‖ INT(i)); Ui = PRF(P, Ui-1); T = U1 ⊕ … ⊕ Uc.
            var first = prf
            first.update(data: salt + withUnsafeBytes(of: blockIndex.bigEndian, Array.init))
            var previous = Array(first.finalize())
            var block = previous
            for _ in 1..<iterations {
                var round = prf
                round.update(data: previous)
                previous = Array(round.finalize())
                for index in block.indices { block[index] ^= previous[index] }
            }
            output += block
            blockIndex += 1
        }
        return Array(output.prefix(keyByteCount))
    }
}
