import ArgumentParser
import CountersignClient

/// What the biometric simulator answers. Linux has no sensor, so the terminal drives
/// `SimulatedBiometricSensor`; without `--biometric` the sensor is unavailable.
enum BiometricSimulation: String, ExpressibleByArgument, CaseIterable {
    /// Recognised at the first prompt.
    case approve
    /// Not recognised three times, then the PIN fallback.
    case deny
    /// No sensor: straight to the PIN fallback.
    case unavailable

    /// The simulator's script for this answer.
    var script: [BiometricOutcome] {
        switch self {
        case .approve: [.approved]
        case .deny: [.notRecognised, .notRecognised, .notRecognised]
        case .unavailable: [.unavailable]
        }
    }
}

/// The flags of commands that sign with the device key.
struct LocalAuthOptions: ParsableArguments {
    @Option(help: "Drive the biometric SIMULATOR (Linux has no sensor): approve, deny or unavailable.")
    var biometric: BiometricSimulation = .unavailable

    @Option(
        name: .customLong("local-pin"),
        help: "The local PIN: it unseals the device key (asked on the terminal if not given).")
    var localPIN: String?

    /// The authenticator and the signer it unseals, for `profile`'s device key. `devicePINFallback`:
    /// whether the local PIN may stand in for a failed biometric (transfers: yes; airtime: the
    /// account PIN does instead).
    func make(profile: ClientProfile, devicePINFallback: Bool) throws -> (
        authenticator: SealedKeyAuthenticator, signer: UnsealedKeySigner
    ) {
        try Self.make(
            profile: profile, biometric: biometric,
            prompt: TerminalPINPrompt(preset: localPIN, label: "Local PIN (this terminal's key, not your account PIN)"),
            devicePINFallback: devicePINFallback
        )
    }

    /// The same for any PIN prompt (the demo scripts its own).
    static func make(
        profile: ClientProfile, biometric: BiometricSimulation, prompt: any PINPrompt, devicePINFallback: Bool
    ) throws -> (authenticator: SealedKeyAuthenticator, signer: UnsealedKeySigner) {
        guard profile.keyStore.exists(), let verifier = try profile.localPIN() else {
            throw CommandFailure("this profile has no device key; run `countersign device register` first")
        }
        let signer = UnsealedKeySigner()
        let authenticator = SealedKeyAuthenticator(
            sensor: SimulatedBiometricSensor(script: biometric.script), pinVerifier: devicePINFallback ? verifier : nil,
            pinPrompt: prompt, store: profile.keyStore, signer: signer, onUnlocked: { profile.markUnlocked($0) }
        )
        return (authenticator, signer)
    }

    /// Records the key's counter after signing, so that the next run does not reuse a value.
    static func recordSignCount(_ signer: UnsealedKeySigner, in profile: ClientProfile) {
        guard let count = signer.signCount else { return }
        do {
            try profile.keyStore.recordSignCount(count)
        } catch {
            print("warning: could not record the signature counter: \(error)")
        }
    }
}
