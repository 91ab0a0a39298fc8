import CountersignCodec
import Testing

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
        for count in [0, 1, 7, 8, 9, 32] {
            #expect(SecureRandom.bytes(count).count == count)
        }
        // Two equal 32-byte draws would be a 2^-256 event: a broken generator.
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}
