/// What one biometric prompt ended with.
public enum BiometricOutcome: String, Sendable, Equatable {
    /// The enrolled user was recognised.
    case approved
    /// Someone tried and was not recognised; the prompt may be tried again.
    case notRecognised
    /// The user dismissed the prompt.
    case cancelled
    /// No sensor, nothing enrolled, or the sensor is locked out: use the device PIN instead.
    case unavailable
}

/// One biometric check on the device (Face ID, Touch ID, a fingerprint sensor), without network.
public protocol BiometricSensor: Sendable {
    /// Shows one prompt with `reason` and reports how it ended.
    func evaluate(reason: String) async -> BiometricOutcome
}
