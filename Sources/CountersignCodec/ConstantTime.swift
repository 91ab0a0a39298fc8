/// Comparisons whose duration does not depend on where secrets or signatures differ.
package enum ConstantTime {
    /// Byte-wise equality that always scans the whole input when the lengths match.
    package static func equal<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
