/// How the user proved, on the device, that they are present.
public enum LocalAuthMethod: String, Sendable, Equatable {
    /// A biometric check (Face ID, Touch ID, a fingerprint sensor, or the named simulator on Linux).
    case biometric
    /// The local device PIN.
    case devicePIN
}

/// Why a local authentication did not succeed.
public enum LocalAuthError: Error, Sendable, Equatable {
    /// No such factor on this device (no sensor, nothing enrolled, no PIN set).
    case notAvailable
    /// The user dismissed the prompt.
    case cancelled
    /// The user was not recognised (or gave a wrong PIN) as many times as allowed.
    case failed
}

/// A check, entirely on the device and without any network, that the owner is present: the
/// seed's "local biometric authorization", with the device PIN as its fallback.
public protocol LocalAuthenticator: Sendable {
    /// Prompts with `reason` and returns the method that succeeded; throws `LocalAuthError`.
    func authenticate(reason: String) async throws -> LocalAuthMethod
}
