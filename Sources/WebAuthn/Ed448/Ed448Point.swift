/// A point on edwards448 (x² + y² = 1 + d·x²·y², d = −39081) in projective coordinates (RFC 8032 §5.2.4).
struct Ed448Point: Sendable {
    var x: Ed448Field
    var y: Ed448Field
    var z: Ed448Field

    static let d = Ed448Field.zero - Ed448Field(small: 39081)
    static let identity = Ed448Point(x: .zero, y: .one, z: .one)

    /// The base point B, decoded from its RFC 8032 encoding.
    static let base = Ed448Point(encoded: [
        0x14, 0xFA, 0x30, 0xF2, 0x5B, 0x79, 0x08, 0x98, 0xAD, 0xC8, 0xD7, 0x4E, 0x2C, 0x13, 0xBD, 0xFD,
        0xC4, 0x39, 0x7C, 0xE6, 0x1C, 0xFF, 0xD3, 0x3A, 0xD7, 0xC2, 0xA0, 0x05, 0x1E, 0x9C, 0x78, 0x87,
        0x40, 0x98, 0xA3, 0x6C, 0x73, 0x73, 0xEA, 0x4B, 0x62, 0xC7, 0xC9, 0x56, 0x37, 0x20, 0x76, 0x88,
        0x24, 0xBC, 0xB6, 0x6E, 0x71, 0x46, 0x3F, 0x69, 0x00,
    ])!

    init(x: Ed448Field, y: Ed448Field, z: Ed448Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// RFC 8032 §5.2.3 decoding of a 57-byte point; `nil` when it is not a canonical encoding of a curve point.
    init?(encoded bytes: [UInt8]) {
        guard bytes.count == 57, bytes[56] & 0x7F == 0 else { return nil }
        let xSign = bytes[56] >> 7
        guard let y = Ed448Field(littleEndian: bytes[0..<56]) else { return nil }
        // x² = (y² − 1) / (d·y² − 1); x = u³v·(u⁵v³)^((p−3)/4), then check v·x² = u.
        let y2 = y.squared()
        let u = y2 - .one
        let v = Self.d * y2 - .one
        let u2 = u.squared()
        let v2 = v.squared()
        let u3v = u2 * u * v
        var x = u3v * (u2 * u3v * v2).powerPMinus3Over4()
        guard v * x.squared() == u else { return nil }
        if x.isZero, xSign == 1 { return nil }
        if (x.isOdd ? 1 : 0) != xSign { x = .zero - x }
        self.init(x: x, y: y, z: .one)
    }

    static func + (p: Ed448Point, q: Ed448Point) -> Ed448Point {
        let a = p.z * q.z
        let b = a.squared()
        let c = p.x * q.x
        let d = p.y * q.y
        let e = Self.d * c * d
        let f = b - e
        let g = b + e
        let h = (p.x + p.y) * (q.x + q.y)
        return Ed448Point(x: a * f * (h - c - d), y: a * g * (d - c), z: f * g)
    }

    func doubled() -> Ed448Point {
        let b = (x + y).squared()
        let c = x.squared()
        let d = y.squared()
        let e = c + d
        let h = z.squared()
        let j = e - (h + h)
        return Ed448Point(x: (b - e) * j, y: e * (c - d), z: e * j)
    }

    /// [n]P for a little-endian scalar of any length (variable time: only public scalars are used).
    func multiplied(byLittleEndian scalar: [UInt8]) -> Ed448Point {
        var result = Ed448Point.identity
        for byte in scalar.reversed() {
            for bit in stride(from: 7, through: 0, by: -1) {
                result = result.doubled()
                if byte >> UInt8(bit) & 1 == 1 { result = result + self }
            }
        }
        return result
    }

    /// Projective equality: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1.
    static func == (p: Ed448Point, q: Ed448Point) -> Bool {
        p.x * q.z == q.x * p.z && p.y * q.z == q.y * p.z
    }
}
