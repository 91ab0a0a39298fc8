/// An ML-DSA public key verifying pure ML-DSA signatures with an empty context (FIPS 204 Algorithms 3 and 8),
/// as WebAuthn's AKP credentials sign. swift-crypto offers ML-DSA-65 and -87 but not -44, which this fills in.
package struct MLDSAPublicKey: Sendable {
    /// The parameter set.
    package let parameters: MLDSAParameters
    /// The encoded key (pkEncode).
    package let rawRepresentation: [UInt8]

    /// Checks the key's length for `parameters`.
    package init(_ parameters: MLDSAParameters, rawRepresentation: [UInt8]) throws(WebAuthnError) {
        guard rawRepresentation.count == parameters.publicKeySize else {
            throw WebAuthnError(
                .malformedPublicKey,
                "ML-DSA key is \(rawRepresentation.count) bytes, expected \(parameters.publicKeySize)")
        }
        self.parameters = parameters
        self.rawRepresentation = rawRepresentation
    }

    /// FIPS 204 Algorithm 3 with ctx = "", then Algorithm 8 (ML-DSA.Verify_internal).
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        let p = parameters
        let q = MLDSAPolynomial.q
        guard signature.count == p.signatureSize else { return false }
        // sigDecode (Algorithm 27): c̃, z, h.
        let commitment = Array(signature[0..<p.challengeBytes])
        var z: [[Int64]] = []
        for i in 0..<p.l {
            let start = p.challengeBytes + i * 32 * p.zBits
            z.append(
                MLDSAPolynomial.unpack(signature[start..<start + 32 * p.zBits], bits: p.zBits).map { p.gamma1 - $0 })
        }
        // Step 11's norm check, done early: ‖z‖∞ < γ1 − β.
        guard z.allSatisfy({ $0.allSatisfy { abs($0) < p.gamma1 - p.beta } }) else { return false }
        guard let hint = hintBitUnpack(Array(signature[(p.challengeBytes + p.l * 32 * p.zBits)...])) else {
            return false
        }

        // pkDecode (Algorithm 23): ρ and t1.
        let rho = Array(rawRepresentation[0..<32])
        // tr = H(pk, 64); μ = H(tr || M′, 64) with M′ = 0 || |ctx| || ctx || M for an empty ctx.
        var trHash = SHAKE.shake256(rawRepresentation)
        var muHash = SHAKE.shake256(trHash.squeeze(64), [0, 0], message)
        let mu = muHash.squeeze(64)

        let c = MLDSAPolynomial.ntt(sampleInBall(commitment))
        let zHat = z.map(MLDSAPolynomial.ntt)
        var encodedW1: [UInt8] = []
        for row in 0..<p.k {
            // w′ = NTT⁻¹(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1 · 2^d)), one row at a time.
            var accumulator = [Int64](repeating: 0, count: 256)
            for column in 0..<p.l {
                let product = MLDSAPolynomial.multiply(expandA(rho, row: row, column: column), zHat[column])
                for n in 0..<256 { accumulator[n] = (accumulator[n] + product[n]) % q }
            }
            let t1 = MLDSAPolynomial.unpack(rawRepresentation[(32 + 320 * row)..<(32 + 320 * (row + 1))], bits: 10)
            let ct1 = MLDSAPolynomial.multiply(c, MLDSAPolynomial.ntt(t1.map { $0 << MLDSAPolynomial.d }))
            for n in 0..<256 { accumulator[n] = MLDSAPolynomial.reduce(accumulator[n] - ct1[n]) }
            let approximation = MLDSAPolynomial.inverseNTT(accumulator)
            let w1 = (0..<256).map { useHint(hint[row][$0], approximation[$0]) }
            MLDSAPolynomial.pack(w1, bits: p.w1Bits, into: &encodedW1)
        }
        // c̃′ = H(μ || w1Encode(w1′), λ/4) must equal c̃.
        var check = SHAKE.shake256(mu, encodedW1)
        return check.squeeze(p.challengeBytes) == commitment
    }

    /// RejNTTPoly(ρ || s || r) (Algorithms 30 and 32): Â[r][s] sampled from SHAKE128.
    private func expandA(_ rho: [UInt8], row: Int, column: Int) -> [Int64] {
        var stream = SHAKE.shake128(rho, [UInt8(column), UInt8(row)])
        var coefficients: [Int64] = []
        coefficients.reserveCapacity(256)
        while coefficients.count < 256 {
            let b = stream.squeeze(3)
            let candidate = Int64(b[0]) | Int64(b[1]) << 8 | Int64(b[2] & 0x7F) << 16
            if candidate < MLDSAPolynomial.q { coefficients.append(candidate) }
        }
        return coefficients
    }

    /// SampleInBall (Algorithm 29): τ coefficients of ±1 placed by SHAKE256(c̃).
    private func sampleInBall(_ seed: [UInt8]) -> [Int64] {
        var stream = SHAKE.shake256(seed)
        let signs = stream.squeeze(8).enumerated().reduce(UInt64(0)) {
            $0 | UInt64($1.element) << (8 * UInt64($1.offset))
        }
        var c = [Int64](repeating: 0, count: 256)
        for (index, i) in ((256 - parameters.tau)..<256).enumerated() {
            var j = Int(stream.squeeze(1)[0])
            while j > i { j = Int(stream.squeeze(1)[0]) }
            c[i] = c[j]
            c[j] = signs >> UInt64(index) & 1 == 1 ? MLDSAPolynomial.q - 1 : 1
        }
        return c
    }

    /// HintBitUnpack (Algorithm 21); `nil` for malformed hints (unsorted or out-of-range indices, non-zero padding).
    private func hintBitUnpack(_ y: [UInt8]) -> [[Bool]]? {
        let omega = parameters.omega
        var hint = [[Bool]](repeating: [Bool](repeating: false, count: 256), count: parameters.k)
        var index = 0
        for i in 0..<parameters.k {
            let end = Int(y[omega + i])
            guard end >= index, end <= omega else { return nil }
            let first = index
            while index < end {
                if index > first, y[index - 1] >= y[index] { return nil }
                hint[i][Int(y[index])] = true
                index += 1
            }
        }
        return y[index..<omega].allSatisfy { $0 == 0 } ? hint : nil
    }

    /// UseHint (Algorithm 40) with Decompose (Algorithm 36).
    private func useHint(_ hint: Bool, _ r: Int64) -> Int64 {
        let q = MLDSAPolynomial.q
        let alpha = 2 * parameters.gamma2
        let m = (q - 1) / alpha
        var r0 = r % alpha
        if r0 > alpha / 2 { r0 -= alpha }
        var r1: Int64
        if r - r0 == q - 1 {
            r1 = 0
            r0 -= 1
        } else {
            r1 = (r - r0) / alpha
        }
        guard hint else { return r1 }
        return r0 > 0 ? (r1 + 1) % m : (r1 - 1 + m) % m
    }
}
