import Testing

@testable import CountersignCodec

@Suite("Constant-time comparison and random bytes")
struct ConstantTimeTests {
    @Test("equal only for the same bytes in the same length")
    func equality() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equal([UInt8](), [UInt8]()))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([0, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equal([9, 1, 2, 3][1...], [1, 2, 3]))
    }

    @Test("random bytes come in the length asked for, and differ between draws")
    func randomBytes() {
        for count in [-1, 0, 1, 7, 8, 9, 32, 255, 256, 257, 1_000] {
            #expect(SecureRandom.bytes(count).count == max(count, 0))
        }
        // Two equal 32-byte draws would be a 2^-256 event: a broken generator.
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
        // Every 256-byte call of a long draw is filled: random bytes show about 162 distinct values in
        // 256, an unfilled or repeated stretch far fewer.
        let long = SecureRandom.bytes(1_000)
        for start in stride(from: 0, to: 1_000, by: 250) {
            #expect(Set(long[start..<start + 250]).count > 100, "bytes \(start)..<\(start + 250)")
        }
        #expect(long[0..<256] != long[256..<512])
    }

    @Test("the fallback generator fills every byte it is given")
    func fallbackFills() {
        var bytes = [UInt8](repeating: 0, count: 250)
        bytes.withUnsafeMutableBytes { SecureRandom.fillFromGenerator($0) }
        #expect(Set(bytes).count > 100)
        var short = [UInt8](repeating: 0, count: 3)
        short.withUnsafeMutableBytes { SecureRandom.fillFromGenerator($0) }
        #expect(short != [0, 0, 0])
    }

    @Test("small draws come from the pool: never the same bytes twice, one system read for many draws")
    func pooledDraws() async {
        // 16-byte draws from eight tasks at once, across many refills: every draw distinct (a repeat of
        // 128 random bits would be a pool handing out bytes twice), none all zero (wiped bytes served).
        let fillsBefore = SecureRandom.poolFills
        let draws = await withTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<500).map { _ in SecureRandom.bytes(16) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(draws.count == 4_000 && Set(draws).count == 4_000)
        #expect(!draws.contains([UInt8](repeating: 0, count: 16)))
        // 64,000 bytes in 256-byte fills: about 250 (other tests draw too), far from 4,000 calls.
        #expect(SecureRandom.poolFills - fillsBefore < 1_000)
        // The sizes on either side of the pool's limit, and one that leaves too little for the next.
        for count in [SecureRandom.pooledMaximum, SecureRandom.pooledMaximum + 1, 63, 200] {
            #expect(SecureRandom.bytes(count).count == count)
        }
        let halves = (0..<64).map { _ in SecureRandom.bytes(60) }
        #expect(Set(halves).count == 64)
    }
}
