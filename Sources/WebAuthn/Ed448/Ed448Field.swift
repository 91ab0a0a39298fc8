/// An element of GF(p), p = 2^448 − 2^224 − 1 (RFC 8032 §5.2), as 16 limbs of 28 bits.
///
/// The radix makes reduction cheap: 2^448 ≡ 2^224 + 1, and 2^224 is exactly 8 limbs, so a limb that
/// overflows position 16 folds into positions 0 and 8. Limbs are kept below about 2^28 after each operation.
/// Only public data (keys, signatures) passes through here, so the code is not constant-time.
struct Ed448Field: Sendable {
    private static let mask: UInt64 = (1 << 28) - 1
    /// 16 limbs, least significant first, stored inline (a homogeneous tuple is contiguous): no heap per operation.
    private var limbs: Ed448Limbs

    private init(_ fill: (UnsafeMutableBufferPointer<UInt64>) -> Void) {
        limbs = Ed448Limbs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &limbs) { fill($0.bindMemory(to: UInt64.self)) }
    }

    /// Runs `body` over the limbs of `value`.
    private static func read<R>(_ value: Ed448Field, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        withUnsafeBytes(of: value.limbs) { body($0.assumingMemoryBound(to: UInt64.self)) }
    }

    static let zero = Ed448Field { _ in }
    static let one = Ed448Field(small: 1)

    init(small value: UInt64) {
        self.init { limbs in
            limbs[0] = value & Self.mask
            limbs[1] = value >> 28
        }
    }

    /// Decodes 56 little-endian bytes; `nil` unless the value is below p (RFC 8032 §5.2.3 rejects non-canonical y).
    init?(littleEndian bytes: ArraySlice<UInt8>) {
        guard bytes.count == 56 else { return nil }
        let start = bytes.startIndex
        self.init { limbs in
            for pair in 0..<8 {
                var chunk: UInt64 = 0 // 7 bytes = two limbs
                for byte in 0..<7 { chunk |= UInt64(bytes[start + pair * 7 + byte]) << (8 * UInt64(byte)) }
                limbs[2 * pair] = chunk & Self.mask
                limbs[2 * pair + 1] = chunk >> 28
            }
        }
        guard self.bytes.elementsEqual(bytes) else { return nil }
    }

    /// The canonical 56-byte little-endian encoding.
    var bytes: [UInt8] {
        let limbs = canonical()
        var output: [UInt8] = []
        output.reserveCapacity(56)
        for pair in 0..<8 {
            let chunk = limbs[2 * pair] | limbs[2 * pair + 1] << 28
            for byte in 0..<7 { output.append(UInt8(truncatingIfNeeded: chunk >> (8 * UInt64(byte)))) }
        }
        return output
    }

    var isZero: Bool { canonical().allSatisfy { $0 == 0 } }
    var isOdd: Bool { canonical()[0] & 1 == 1 }

    static func == (a: Ed448Field, b: Ed448Field) -> Bool { a.canonical() == b.canonical() }

    static func + (a: Ed448Field, b: Ed448Field) -> Ed448Field {
        read(a) { x in
            read(b) { y in
                Ed448Field { out in
                    for i in 0..<16 { out[i] = x[i] &+ y[i] }
                    carry(out)
                }
            }
        }
    }

    /// a − b computed as a + 2p − b so that no limb goes negative (2p has limbs 2^29 − 2, and 2^29 − 4 at position 8).
    static func - (a: Ed448Field, b: Ed448Field) -> Ed448Field {
        read(a) { x in
            read(b) { y in
                Ed448Field { out in
                    for i in 0..<16 { out[i] = x[i] &+ (i == 8 ? 0x1FFF_FFFC : 0x1FFF_FFFE) &- y[i] }
                    carry(out)
                }
            }
        }
    }

    static func * (a: Ed448Field, b: Ed448Field) -> Ed448Field {
        read(a) { x in
            read(b) { y in
                Ed448Field { out in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 31) { wide in
                        wide.initialize(repeating: 0)
                        for i in 0..<16 {
                            for j in 0..<16 { wide[i + j] &+= x[i] &* y[j] }
                        }
                        // Fold 2^(28k) for k ≥ 16 as 2^(28(k−16)) · (2^224 + 1), from the top so refolded limbs are handled.
                        for k in stride(from: 30, through: 16, by: -1) {
                            wide[k - 16] &+= wide[k]
                            wide[k - 8] &+= wide[k]
                        }
                        for i in 0..<16 { out[i] = wide[i] }
                    }
                    carry(out)
                }
            }
        }
    }

    /// Propagates carries twice, folding the carry out of limb 15 into limbs 0 and 8.
    private static func carry(_ limbs: UnsafeMutableBufferPointer<UInt64>) {
        for _ in 0..<2 {
            for i in 0..<15 {
                limbs[i + 1] &+= limbs[i] >> 28
                limbs[i] &= mask
            }
            let top = limbs[15] >> 28
            limbs[15] &= mask
            limbs[0] &+= top
            limbs[8] &+= top
        }
    }

    /// Fully reduced limbs: subtract p while the value is at least p.
    private func canonical() -> [UInt64] {
        var value = Self.read(self) { Array($0) }
        for i in 0..<15 { // every limb below 2^28, without folding
            value[i + 1] += value[i] >> 28
            value[i] &= Self.mask
        }
        for _ in 0..<2 {
            // value − p = value + 2^224 + 1 − 2^448: if that carries out of bit 448, value ≥ p.
            var trial = value
            trial[0] += 1
            trial[8] += 1
            for i in 0..<15 {
                trial[i + 1] += trial[i] >> 28
                trial[i] &= Self.mask
            }
            if trial[15] >> 28 != 0 {
                trial[15] &= Self.mask
                value = trial
            }
        }
        return value
    }

    func squared() -> Ed448Field { self * self }

    /// self^e where bit i of e is `bit(i)`, for i below `bits`.
    func power(bits: Int, _ bit: (Int) -> Bool) -> Ed448Field {
        var result = Ed448Field.one
        for i in stride(from: bits - 1, through: 0, by: -1) {
            result = result.squared()
            if bit(i) { result = result * self }
        }
        return result
    }

    /// self^((p−3)/4); (p − 3)/4 = 2^446 − 2^222 − 1 has every bit of 0..<446 set except bit 222.
    func powerPMinus3Over4() -> Ed448Field { power(bits: 446) { $0 != 222 } }
}

/// Sixteen inline limbs.
typealias Ed448Limbs = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)
