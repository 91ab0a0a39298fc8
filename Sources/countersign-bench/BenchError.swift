/// A bench failure with a message for the operator.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, for the operator.
    let description: String
    /// An error with this message.
    init(_ description: String) { self.description = description }
}
