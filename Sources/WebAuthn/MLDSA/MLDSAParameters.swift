/// ML-DSA parameter sets (FIPS 204 §4, Table 1) and the sizes they imply.
package struct MLDSAParameters: Sendable {
    /// Rows of A (polynomials in t1 and the hint).
    let k: Int
    /// Columns of A (polynomials in z).
    let l: Int
    /// Number of ±1 coefficients in the challenge polynomial.
    let tau: Int
    /// Collision strength λ in bits; the commitment hash c̃ has λ/4 bytes.
    let lambda: Int
    /// Range of z's coefficients.
    let gamma1: Int64
    /// Low-order rounding range.
    let gamma2: Int64
    /// τ·η, the bound subtracted from γ1 in the norm check.
    let beta: Int64
    /// Maximum number of 1s in the hint.
    let omega: Int

    /// ML-DSA-44 (NIST security category 2).
    package static let mlDSA44 = MLDSAParameters(
        k: 4, l: 4, tau: 39, lambda: 128, gamma1: 1 << 17, gamma2: (MLDSAPolynomial.q - 1) / 88, beta: 78, omega: 80)
    /// ML-DSA-65 (category 3).
    package static let mlDSA65 = MLDSAParameters(
        k: 6, l: 5, tau: 49, lambda: 192, gamma1: 1 << 19, gamma2: (MLDSAPolynomial.q - 1) / 32, beta: 196, omega: 55)
    /// ML-DSA-87 (category 5).
    package static let mlDSA87 = MLDSAParameters(
        k: 8, l: 7, tau: 60, lambda: 256, gamma1: 1 << 19, gamma2: (MLDSAPolynomial.q - 1) / 32, beta: 120, omega: 75)

    /// Bytes of c̃.
    var challengeBytes: Int { lambda / 4 }
    /// Bits per packed z coefficient: bitlen(2γ1 − 1).
    var zBits: Int { gamma1 == 1 << 17 ? 18 : 20 }
    /// Bits per packed w1 coefficient: bitlen((q − 1)/(2γ2) − 1).
    var w1Bits: Int { gamma2 == (MLDSAPolynomial.q - 1) / 88 ? 6 : 4 }
    /// pkEncode: ρ (32 bytes) and k polynomials of 10-bit t1 coefficients.
    var publicKeySize: Int { 32 + 320 * k }
    /// sigEncode: c̃, l packed z polynomials, then ω + k hint bytes.
    var signatureSize: Int { challengeBytes + l * 32 * zBits + omega + k }
}
