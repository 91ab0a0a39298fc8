/// SHAKE128 and SHAKE256 (FIPS 202), which Ed448 (RFC 8032) and ML-DSA (FIPS 204) hash with
/// and swift-crypto does not expose. Absorb once, then squeeze as much as needed.
package struct SHAKE {
    private var state = [UInt64](repeating: 0, count: 25)
    private let rate: Int
    private var squeezed: [UInt8] = []
    private var squeezeOffset = 0

    /// SHAKE128 over the concatenation of `parts`.
    package static func shake128(_ parts: [UInt8]...) -> SHAKE { SHAKE(rate: 168, parts) }
    /// SHAKE256 over the concatenation of `parts`.
    package static func shake256(_ parts: [UInt8]...) -> SHAKE { SHAKE(rate: 136, parts) }

    private init(rate: Int, _ parts: [[UInt8]]) {
        self.rate = rate
        var block: [UInt8] = []
        block.reserveCapacity(rate)
        for part in parts {
            for byte in part {
                block.append(byte)
                if block.count == rate {
                    absorb(block)
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
        // FIPS 202 §6.2: SHAKE domain bits 1111, then pad10*1.
        block.append(0x1F)
        block += [UInt8](repeating: 0, count: rate - block.count)
        block[rate - 1] |= 0x80
        absorb(block)
        squeezeOffset = rate // nothing squeezed yet
    }

    private mutating func absorb(_ block: [UInt8]) {
        for lane in 0..<(rate / 8) {
            var word: UInt64 = 0
            for byte in 0..<8 { word |= UInt64(block[lane * 8 + byte]) << (8 * UInt64(byte)) }
            state[lane] ^= word
        }
        Keccak.permute(&state)
    }

    /// The next `count` output bytes.
    package mutating func squeeze(_ count: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(count)
        while output.count < count {
            if squeezeOffset == rate {
                squeezed = (0..<rate).map { UInt8(truncatingIfNeeded: state[$0 / 8] >> (8 * UInt64($0 % 8))) }
                Keccak.permute(&state)
                squeezeOffset = 0
            }
            let take = min(count - output.count, rate - squeezeOffset)
            output += squeezed[squeezeOffset..<squeezeOffset + take]
            squeezeOffset += take
        }
        return output
    }
}

/// Keccak-f[1600] (FIPS 202 §3).
enum Keccak {
    private static let roundConstants: [UInt64] = [
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
        0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
    ]
    // ρ rotation amounts and π lane order along the π orbit starting at lane 1.
    private static let rotations: [UInt64] = [
        1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
    ]
    private static let lanes: [Int] = [
        10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
    ]

    static func permute(_ state: inout [UInt64]) {
        var columns = [UInt64](repeating: 0, count: 5)
        for round in 0..<24 {
            // θ
            for x in 0..<5 { columns[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20] }
            for x in 0..<5 {
                let t = columns[(x + 4) % 5] ^ rotate(columns[(x + 1) % 5], 1)
                for y in stride(from: 0, to: 25, by: 5) { state[y + x] ^= t }
            }
            // ρ and π
            var carried = state[1]
            for step in 0..<24 {
                let lane = lanes[step]
                let next = state[lane]
                state[lane] = rotate(carried, rotations[step])
                carried = next
            }
            // χ
            for y in stride(from: 0, to: 25, by: 5) {
                for x in 0..<5 { columns[x] = state[y + x] }
                for x in 0..<5 { state[y + x] ^= ~columns[(x + 1) % 5] & columns[(x + 2) % 5] }
            }
            // ι
            state[0] ^= roundConstants[round]
        }
    }

    private static func rotate(_ value: UInt64, _ amount: UInt64) -> UInt64 {
        value << amount | value >> (64 - amount)
    }
}
