#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Random bytes for salts, nonces, tokens and credential ids.
package enum SecureRandom {
    /// `count` bytes from the system's cryptographically secure generator: `getentropy` (one
    /// `getrandom` call for up to 256 bytes on Linux) or `arc4random_buf` on Apple platforms.
    /// Should the system call fail, the bytes come from `SystemRandomNumberGenerator`, which reads
    /// the same source eight bytes at a time.
    package static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let whole = UnsafeMutableRawBufferPointer(buffer)
            var start = 0
            while start < count {
                let end = min(count, start + maximumChunk)
                let chunk = UnsafeMutableRawBufferPointer(rebasing: whole[start..<end])
                if !fillFromSystem(chunk) { fillFromGenerator(chunk) }
                start = end
            }
            initialized = count
        }
    }

    /// The most `getentropy` gives in one call.
    private static let maximumChunk = 256

    private static func fillFromSystem(_ chunk: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = chunk.baseAddress else { return false }
        #if canImport(Darwin)
            arc4random_buf(base, chunk.count)
            return true
        #else
            return getentropy(base, chunk.count) == 0
        #endif
    }

    static func fillFromGenerator(_ chunk: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var index = 0
        while index < chunk.count {
            withUnsafeBytes(of: generator.next() as UInt64) { word in
                for byte in word where index < chunk.count {
                    chunk[index] = byte
                    index += 1
                }
            }
        }
    }
}
