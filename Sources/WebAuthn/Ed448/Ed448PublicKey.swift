/// An Ed448 public key (RFC 8032 §5.2), verifying PureEdDSA signatures with an empty context,
/// as COSE alg -53 / EdDSA with crv 7 credentials sign.
package struct Ed448PublicKey: Sendable {
    /// The group order L = 2^446 − 13818066809895115352007386748515426880336692474882178609894547503885, little-endian.
    private static let order: [UInt8] = [
        0xF3, 0x44, 0x58, 0xAB, 0x92, 0xC2, 0x78, 0x23, 0x55, 0x8F, 0xC5, 0x8D, 0x72, 0xC2, 0x6C, 0x21,
        0x90, 0x36, 0xD6, 0xAE, 0x49, 0xDB, 0x4E, 0xC4, 0xE9, 0x23, 0xCA, 0x7C, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F, 0x00,
    ]
    /// dom4(0, "") (RFC 8032 §5.2): "SigEd448", phflag 0, empty context.
    private static let domain: [UInt8] = Array("SigEd448".utf8) + [0, 0]

    /// The 57-byte encoding.
    package let rawRepresentation: [UInt8]
    private let point: Ed448Point

    /// Decodes a 57-byte public key.
    package init(rawRepresentation: [UInt8]) throws(WebAuthnError) {
        guard let point = Ed448Point(encoded: rawRepresentation) else {
            throw WebAuthnError(.malformedPublicKey, "Ed448 key is not a 57-byte encoding of a curve point")
        }
        self.rawRepresentation = rawRepresentation
        self.point = point
    }

    /// RFC 8032 §5.2.7: checks [4][S]B = [4]R + [4][k]A with k = SHAKE256(dom4 || R || A || M, 114).
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 114 else { return false }
        let encodedR = Array(signature[0..<57])
        let s = Array(signature[57..<114])
        guard Self.isBelowOrder(s), let r = Ed448Point(encoded: encodedR) else { return false }
        var shake = SHAKE.shake256(Self.domain, encodedR, rawRepresentation, message)
        // k is used unreduced: multiplying by the cofactor first puts A in the prime-order subgroup, where k and k mod L act alike.
        let k = shake.squeeze(114)
        let left = Ed448Point.base.multiplied(byLittleEndian: s).doubled().doubled()
        let right = (r + point.multiplied(byLittleEndian: k)).doubled().doubled()
        return left == right
    }

    /// Whether the little-endian scalar is below L.
    private static func isBelowOrder(_ scalar: [UInt8]) -> Bool {
        for index in stride(from: 56, through: 0, by: -1) where scalar[index] != order[index] {
            return scalar[index] < order[index]
        }
        return false
    }
}
