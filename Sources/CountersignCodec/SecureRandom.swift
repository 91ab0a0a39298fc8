import Synchronization

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
    ///
    /// Up to `pooledMaximum` bytes come from a pool read from the system 256 bytes at a time: a
    /// payment draws a dozen ids, nonces and trace ids of 10 to 32 bytes, each a system call of its
    /// own before. Every byte is handed out once and wiped from the pool as it is; the process
    /// never forks, so no other process shares the pool.
    package static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        if count <= pooledMaximum, let pooled = pool.take(count) { return pooled }
        return system(count)
    }

    /// The largest draw served from the pool.
    package static let pooledMaximum = 64
    /// Times the pool was filled from the system since the process started.
    package static var poolFills: Int { pool.fills.load(ordering: .relaxed) }

    private static let pool = Pool()

    /// `count` bytes read from the system for this call alone.
    private static func system(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
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

    /// Bytes read from the system and not yet handed out, behind a lock.
    private final class Pool: Sendable {
        private let state = Mutex<(bytes: [UInt8], next: Int)>(
            ([UInt8](repeating: 0, count: maximumChunk), maximumChunk))
        let fills = Atomic<Int>(0)

        /// The next `count` (at most 256) bytes, refilling first when fewer are left; nil if the
        /// system could not fill it.
        func take(_ count: Int) -> [UInt8]? {
            state.withLock { state -> [UInt8]? in
                if maximumChunk - state.next < count {
                    let filled = state.bytes.withUnsafeMutableBytes { fillFromSystem($0) }
                    guard filled else { return nil }
                    fills.add(1, ordering: .relaxed)
                    state.next = 0
                }
                let range = state.next..<(state.next + count)
                let taken = Array(state.bytes[range])
                for index in range { state.bytes[index] = 0 }
                state.next += count
                return taken
            }
        }
    }

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
