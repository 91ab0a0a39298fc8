#if canImport(LocalAuthentication)
    import Foundation
    import LocalAuthentication

    /// Face ID / Touch ID through LocalAuthentication, as a `BiometricSensor`.
    ///
    /// Not compiled or tested on the Linux CI; it maps `LAError` codes onto the four outcomes that
    /// `FallbackLocalAuthenticator` needs, and leaves the passcode fallback to that authenticator.
    public struct LABiometricSensor: BiometricSensor {
        /// A sensor using a fresh `LAContext` per prompt, so no earlier success is reused.
        public init() {}

        /// One biometric prompt showing `reason`.
        public func evaluate(reason: String) async -> BiometricOutcome {
            let context = LAContext()
            // Hide the system's "Enter Password" button: the device PIN fallback is ours.
            context.localizedFallbackTitle = ""
            var availability: NSError?
            guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &availability) else {
                return .unavailable
            }
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
                return .approved
            } catch let error as LAError {
                switch error.code {
                case .userCancel, .appCancel, .systemCancel: return .cancelled
                case .authenticationFailed: return .notRecognised
                default: return .unavailable // lockout, not enrolled, user fallback, passcode not set
                }
            } catch {
                return .unavailable
            }
        }
    }
#endif
