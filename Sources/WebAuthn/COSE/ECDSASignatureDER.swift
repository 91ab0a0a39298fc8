/// Strict DER decoding of an ECDSA signature, `SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.3),
/// into the fixed-width r || s form swift-crypto verifies.
///
/// This is on the assertion hot path: swift-crypto's `init(derRepresentation:)` builds a generic ASN.1
/// tree first, which costs several times more than this single pass.
package enum ECDSASignatureDER {
    /// r || s, each left-padded to `coordinateSize` bytes; `nil` unless `der` is exactly one minimal DER encoding.
    package static func raw<Bytes: RandomAccessCollection<UInt8>>(_ der: Bytes, coordinateSize: Int) -> [UInt8]? {
        var index = der.startIndex
        func next() -> UInt8? {
            guard index != der.endIndex else { return nil }
            defer { index = der.index(after: index) }
            return der[index]
        }
        guard next() == 0x30, var length = next().map(Int.init) else { return nil }
        if length == 0x81 {
            // Long form only for lengths of 128 and up (DER's minimal length rule).
            guard let long = next(), long >= 0x80 else { return nil }
            length = Int(long)
        } else if length > 0x7F {
            return nil
        }
        guard der.distance(from: index, to: der.endIndex) == length else { return nil }
        var output = [UInt8](repeating: 0, count: 2 * coordinateSize)
        for half in 0..<2 {
            guard next() == 0x02, let count = next().map(Int.init), count >= 1, count <= coordinateSize + 1,
                der.distance(from: index, to: der.endIndex) >= count
            else { return nil }
            let start = index
            let first = der[start]
            // Non-negative and minimal: a leading zero only when the next byte has its top bit set.
            guard first & 0x80 == 0 else { return nil }
            var valueStart = start
            if first == 0, count > 1 {
                let second = der[der.index(after: start)]
                guard second & 0x80 != 0 else { return nil }
                valueStart = der.index(after: start)
            }
            let valueEnd = der.index(start, offsetBy: count)
            let valueCount = der.distance(from: valueStart, to: valueEnd)
            guard valueCount <= coordinateSize else { return nil }
            var target = half * coordinateSize + coordinateSize - valueCount
            for byte in der[valueStart..<valueEnd] {
                output[target] = byte
                target += 1
            }
            index = valueEnd
        }
        return index == der.endIndex ? output : nil
    }
}
