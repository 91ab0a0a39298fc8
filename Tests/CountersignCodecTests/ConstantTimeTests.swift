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
}
