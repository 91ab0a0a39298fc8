import CountersignCodec
import Crypto
import Foundation
import Synchronization

/// Random identifiers, and the digests under which bearer secrets are stored.
package enum Identifier {
    private static let sequence = Atomic<UInt32>(0)

    /// A prefixed id that sorts by creation within a process, e.g. `tx_0192f3a1b2c3004a_3kq…`:
    /// milliseconds (12 hex digits), a per-process counter (4 hex digits), then 80 random bits, so
    /// rows created in the same millisecond still list in the order they were made.
    package static func make(_ prefix: String) -> String {
        let millis = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        let counter = sequence.wrappingAdd(1, ordering: .relaxed).newValue & 0xFFFF
        return prefix + "_" + hex(millis, width: 12) + hex(UInt64(counter), width: 4) + "_"
            + Base64URL.encode(SecureRandom.bytes(10))
    }

    private static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// SHA-256 of `text`, base64url: how bearer secrets are stored, so a database leak reveals none.
    package static func digest(_ text: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(text.utf8))))
    }
}
