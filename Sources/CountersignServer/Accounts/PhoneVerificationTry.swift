/// A code's verification as a try at it finds it: the number and purpose it was sent for, and the
/// keyed hash of the code to compare with.
package struct PhoneVerificationTry: Sendable, Equatable {
    package let phone: String
    package let purpose: String
    /// The account the code was sent for, where one was known when it was asked for.
    package let userId: String?
    package let codeHash: String
}
