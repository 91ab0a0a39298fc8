/// A user's account as the operator console reads it: who, and the locks.
package struct OperatorAccount: Sendable, Equatable {
    package let id: String
    package let phone: String
    package let name: String
    package let isOperator: Bool
    package let createdAt: Int64
    package let failedPaymentAuths: Int64
    package let paymentLockedUntil: Int64
    package let failedPinAttempts: Int64
    package let pinLockedUntil: Int64
    /// The PIN blocked after repeated locks: only an unlock lifts it.
    package let pinBlocked: Bool
    /// A code proved the number.
    package var phoneVerified = true

    /// Payments or the PIN locked at `now`.
    package func isLocked(at now: Int64) -> Bool { paymentLockedUntil > now || pinLockedUntil > now || pinBlocked }
}
