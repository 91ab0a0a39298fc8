/// The seed's local check: biometric first, the device PIN as fallback, all on the device.
///
/// - A recognised biometric succeeds at once with `.biometric`.
/// - `biometricAttempts` unrecognised biometric prompts, or a sensor that is unavailable, fall
///   back to the PIN.
/// - A cancelled prompt (biometric or PIN) stops at once with `LocalAuthError.cancelled`.
/// - The PIN gets `pinAttempts` tries, then `LocalAuthError.failed`.
/// - With no PIN set, a fallback ends in `.failed` after unrecognised biometrics, and in
///   `.notAvailable` when there was no biometric either.
public struct FallbackLocalAuthenticator: LocalAuthenticator {
    private let sensor: any BiometricSensor
    private let pinVerifier: LocalPINVerifier?
    private let pinPrompt: any PINPrompt
    private let biometricAttempts: Int
    private let pinAttempts: Int

    /// An authenticator over `sensor`, falling back to `pinVerifier` through `pinPrompt`.
    /// Three tries of each is the platform convention (Face ID also offers its fallback after 3).
    public init(
        sensor: any BiometricSensor, pinVerifier: LocalPINVerifier?, pinPrompt: any PINPrompt,
        biometricAttempts: Int = 3, pinAttempts: Int = 3
    ) {
        self.sensor = sensor
        self.pinVerifier = pinVerifier
        self.pinPrompt = pinPrompt
        self.biometricAttempts = max(0, biometricAttempts)
        self.pinAttempts = max(1, pinAttempts)
    }

    /// Prompts with `reason` and returns the method that succeeded; throws `LocalAuthError`.
    public func authenticate(reason: String) async throws -> LocalAuthMethod {
        var biometricWasRefused = false
        biometric: for _ in 0..<biometricAttempts {
            switch await sensor.evaluate(reason: reason) {
            case .approved: return .biometric
            case .cancelled: throw LocalAuthError.cancelled
            case .notRecognised: biometricWasRefused = true
            case .unavailable: break biometric
            }
        }
        guard let pinVerifier else {
            throw biometricWasRefused ? LocalAuthError.failed : LocalAuthError.notAvailable
        }
        for attempt in 1...pinAttempts {
            guard let pin = await pinPrompt.requestPIN(reason: reason, attempt: attempt) else {
                throw LocalAuthError.cancelled
            }
            if pinVerifier.matches(pin) { return .devicePIN }
        }
        throw LocalAuthError.failed
    }
}
