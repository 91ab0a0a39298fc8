/// Random bytes for salts, nonces and credential ids.
package enum SecureRandom {
    /// `count` bytes from the system's cryptographically secure generator (getrandom on Linux,
    /// SecRandomCopyBytes-backed arc4random on Apple platforms).
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
