/// An element of GF(p), p = 2^448 − 2^224 − 1 (RFC 8032 §5.2), as 16 limbs of 28 bits.
///
/// The radix makes reduction cheap: 2^448 ≡ 2^224 + 1, and 2^224 is exactly 8 limbs, so a limb that
/// overflows position 16 folds into positions 0 and 8. Limbs are kept below about 2^28 after each operation.
/// Only public data (keys, signatures) passes through here, so the code is not constant-time.
struct Ed448Field: Sendable {
    private static let mask: UInt64 = (1 << 28) - 1
    private var limbs: [UInt64]

    private init(limbs: [UInt64]) { self.limbs = limbs }

    static let zero = Ed448Field(limbs: [UInt64](repeating: 0, count: 16))
    static let one = Ed448Field(small: 1)

    init(small value: UInt64) {
        var limbs = [UInt64](repeating: 0, count: 16)
        limbs[0] = value & Self.mask
        limbs[1] = value >> 28
        self.limbs = limbs
    }

    /// Decodes 56 little-endian bytes; `nil` unless the value is below p (RFC 8032 §5.2.3 rejects non-canonical y).
    init?(littleEndian bytes: ArraySlice<UInt8>) {
        guard bytes.count == 56 else { return nil }
        let start = bytes.startIndex
        var limbs = [UInt64](repeating: 0, count: 16)
        for pair in 0..<8 {
            var chunk: UInt64 = 0  // 7 bytes = two limbs
            for byte in 0..<7 { chunk |= UInt64(bytes[start + pair * 7 + byte]) << (8 * UInt64(byte)) }
            limbs[2 * pair] = chunk & Self.mask
            limbs[2 * pair + 1] = chunk >> 28
        }
        self.limbs = limbs
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
        Ed448Field(limbs: carry((0..<16).map { a.limbs[$0] + b.limbs[$0] }))
    }

    /// a − b computed as a + 2p − b so that no limb goes negative (2p has limbs 2^29 − 2, and 2^29 − 4 at position 8).
    static func - (a: Ed448Field, b: Ed448Field) -> Ed448Field {
        Ed448Field(limbs: carry((0..<16).map { a.limbs[$0] + ($0 == 8 ? 0x1FFF_FFFC : 0x1FFF_FFFE) - b.limbs[$0] }))
    }

    static func * (a: Ed448Field, b: Ed448Field) -> Ed448Field {
        var wide = [UInt64](repeating: 0, count: 31)
        for i in 0..<16 {
            for j in 0..<16 { wide[i + j] &+= a.limbs[i] &* b.limbs[j] }
        }
        // Fold 2^(28k) for k ≥ 16 as 2^(28(k−16)) · (2^224 + 1), from the top so refolded limbs are handled.
        for k in stride(from: 30, through: 16, by: -1) {
            wide[k - 16] &+= wide[k]
            wide[k - 8] &+= wide[k]
        }
        return Ed448Field(limbs: carry(Array(wide[0..<16])))
    }

    /// Propagates carries twice, folding the carry out of limb 15 into limbs 0 and 8.
    private static func carry(_ input: [UInt64]) -> [UInt64] {
        var limbs = input
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
        return limbs
    }

    /// Fully reduced limbs: subtract p while the value is at least p.
    private func canonical() -> [UInt64] {
        var value = Self.carry(limbs)
        for i in 0..<15 {  // make every limb < 2^28 without folding
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

    /// 1/self = self^(p−2); p − 2 has every bit of 0..<448 set except bits 1 and 224.
    func inverse() -> Ed448Field { power(bits: 448) { $0 != 1 && $0 != 224 } }

    /// self^((p−3)/4); (p − 3)/4 = 2^446 − 2^222 − 1 has every bit of 0..<446 set except bit 222.
    func powerPMinus3Over4() -> Ed448Field { power(bits: 446) { $0 != 222 } }
}
