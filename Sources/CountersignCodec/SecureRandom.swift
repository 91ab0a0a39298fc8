/// Random bytes for salts, nonces, tokens and credential ids.
package enum SecureRandom {
    /// `count` bytes from the system's cryptographically secure generator (getrandom on Linux,
    /// arc4random on Apple platforms), drawn eight at a time rather than one call per byte.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }
}
