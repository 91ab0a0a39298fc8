/// A harness step that failed, with a message for whoever runs the bench or the tests.
package struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String

    /// An error with this message.
    package init(_ description: String) { self.description = description }
}
