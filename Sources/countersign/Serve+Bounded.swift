import ArgumentParser

extension Serve {
    /// A whole-number option checked against its range, the one way `serve` does it: nil when the
    /// option was not given, else the value, or a `ValidationError` naming the flag and the range
    /// (`words` says it another way, e.g. `30 days`). Scale the result after the check, so it cannot
    /// overflow.
    static func bounded<N: BinaryInteger>(_ value: N?, _ flag: String, _ range: ClosedRange<N>, _ words: String? = nil)
        throws -> N?
    {
        guard let value else { return nil }
        guard range.contains(value) else {
            throw ValidationError(
                "\(flag) must be between \(range.lowerBound) and \(range.upperBound)\(words.map { " (\($0))" } ?? "")")
        }
        return value
    }
}
