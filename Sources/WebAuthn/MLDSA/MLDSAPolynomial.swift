/// Polynomials of R_q = Z_q[X]/(X^256 + 1), q = 8380417, with the NTT of FIPS 204 §7.5 and the bit packing of §7.1.
/// Coefficients are held in [0, q) unless noted. Only public data is processed, so nothing here is constant-time.
enum MLDSAPolynomial {
    static let q: Int64 = 8_380_417
    static let d: Int64 = 13

    /// zetas[m] = 1753^BitRev8(m) mod q (FIPS 204 Appendix B).
    static let zetas: [Int64] = (0..<256).map { m in
        var exponent = 0
        for bit in 0..<8 where m >> bit & 1 == 1 { exponent |= 1 << (7 - bit) }
        var result: Int64 = 1
        for _ in 0..<exponent { result = result * 1753 % q }
        return result
    }

    static func reduce(_ value: Int64) -> Int64 {
        let r = value % q
        return r < 0 ? r + q : r
    }

    /// FIPS 204 Algorithm 41.
    static func ntt(_ input: [Int64]) -> [Int64] {
        var w = input.map(reduce)
        var m = 0
        var length = 128
        while length >= 1 {
            for start in stride(from: 0, to: 256, by: 2 * length) {
                m += 1
                let zeta = zetas[m]
                for j in start..<start + length {
                    let t = zeta * w[j + length] % q
                    w[j + length] = reduce(w[j] - t)
                    w[j] = (w[j] + t) % q
                }
            }
            length /= 2
        }
        return w
    }

    /// FIPS 204 Algorithm 42.
    static func inverseNTT(_ input: [Int64]) -> [Int64] {
        var w = input
        var m = 256
        var length = 1
        while length < 256 {
            for start in stride(from: 0, to: 256, by: 2 * length) {
                m -= 1
                let zeta = q - zetas[m]
                for j in start..<start + length {
                    let t = w[j]
                    w[j] = (t + w[j + length]) % q
                    w[j + length] = zeta * reduce(t - w[j + length]) % q
                }
            }
            length *= 2
        }
        return w.map { $0 * 8_347_681 % q } // 8347681 = 256^-1 mod q
    }

    /// Pointwise product of two NTT-domain polynomials.
    static func multiply(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        (0..<256).map { a[$0] * b[$0] % q }
    }

    /// Reads 256 coefficients of `bits` bits each, little-endian bit order (FIPS 204 Algorithms 18–19 inverse packing).
    static func unpack(_ bytes: ArraySlice<UInt8>, bits: Int) -> [Int64] {
        var coefficients: [Int64] = []
        coefficients.reserveCapacity(256)
        var accumulator: UInt64 = 0
        var available = 0
        var index = bytes.startIndex
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        for _ in 0..<256 {
            while available < bits {
                accumulator |= UInt64(bytes[index]) << UInt64(available)
                index += 1
                available += 8
            }
            coefficients.append(Int64(accumulator & mask))
            accumulator >>= UInt64(bits)
            available -= bits
        }
        return coefficients
    }

    /// Writes 256 coefficients of `bits` bits each, little-endian bit order (FIPS 204 Algorithm 16).
    static func pack(_ coefficients: [Int64], bits: Int, into output: inout [UInt8]) {
        var accumulator: UInt64 = 0
        var filled = 0
        for coefficient in coefficients {
            accumulator |= UInt64(coefficient) << UInt64(filled)
            filled += bits
            while filled >= 8 {
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                filled -= 8
            }
        }
    }
}
