/// Random bytes for secrets, salts, nonces and credential ids: the one helper the server, the SDK
/// and the bench draw them from.
package enum SecureRandom {
    /// `count` bytes from the system's cryptographically secure generator (getrandom on Linux,
    /// arc4random on Apple platforms).
    package static func bytes(_ count: Int) -> [UInt8] {
        // Eight bytes per draw from the system generator, not one call per byte.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }
}
