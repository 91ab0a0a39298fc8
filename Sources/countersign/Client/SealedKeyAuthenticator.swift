import CountersignAPI
import CountersignClient
import CountersignCore
import Synchronization

/// Local authentication for a terminal whose device key is sealed under the local PIN (Linux has
/// no biometric sensor or secure element): the biometric — the named simulator — or the local PIN
/// proves presence, and then the local PIN unseals the key. The PIN is the real factor; a
/// simulated approval alone never unseals anything.
struct SealedKeyAuthenticator: LocalAuthenticator {
    let sensor: any BiometricSensor
    /// Nil when the device PIN is not a fallback (airtime falls back to the account PIN instead).
    let pinVerifier: LocalPINVerifier?
    let pinPrompt: any PINPrompt
    let store: FileDeviceKeyStore
    let signer: UnsealedKeySigner
    /// Told how the user proved presence, once the key is unsealed.
    var onUnlocked: @Sendable (LocalAuthMethod) -> Void = { _ in }

    func authenticate(reason: String) async throws -> LocalAuthMethod {
        let typed = TypedPINs(pinPrompt)
        let method = try await FallbackLocalAuthenticator(
            sensor: ShownSensor(sensor: sensor), pinVerifier: pinVerifier, pinPrompt: typed
        ).authenticate(reason: reason)
        // After the device PIN the key opens with the PIN just checked; after a biometric it is asked for.
        let typedPIN = method == .devicePIN ? typed.last : nil
        let unsealWith: String? =
            if let typedPIN { typedPIN } else {
                await pinPrompt.requestPIN(reason: "unseal the device key", attempt: 1)
            }
        guard let pin = unsealWith else { throw LocalAuthError.cancelled }
        let device: DeviceAuthenticator
        do {
            device = try store.load(pin: pin)
        } catch {
            throw LocalAuthError.failed
        }
        signer.unseal(DeviceKeySigner(authenticator: device))
        onUnlocked(method)
        return method
    }
}

/// A `TransactionSigner` whose key arrives once `SealedKeyAuthenticator` unsealed it; it refuses
/// to sign before that.
final class UnsealedKeySigner: TransactionSigner {
    private let key = Mutex<DeviceKeySigner?>(nil)

    func unseal(_ signer: DeviceKeySigner) { key.withLock { $0 = signer } }

    /// The counter to record in the key store after signing; nil when the key was never unsealed.
    var signCount: UInt32? { key.withLock { $0?.signCount } }

    func authorize(quote: TransferQuote, challenge: TransferChallenge) throws -> AuthenticationResponseJSON {
        try unsealed().authorize(quote: quote, challenge: challenge)
    }

    func authorize(airtime options: AuthenticationOptionsResponse) throws -> AuthenticationResponseJSON {
        try unsealed().authorize(airtime: options)
    }

    private func unsealed() throws -> DeviceKeySigner {
        guard let signer = key.withLock({ $0 }) else {
            throw SigningError.keyUnavailable("the device key is still sealed")
        }
        return signer
    }
}

/// Passes PIN prompts through and remembers the last PIN typed.
private final class TypedPINs: PINPrompt {
    private let prompt: any PINPrompt
    private let typed = Mutex<String?>(nil)

    init(_ prompt: any PINPrompt) { self.prompt = prompt }

    var last: String? { typed.withLock { $0 } }

    func requestPIN(reason: String, attempt: Int) async -> String? {
        let pin = await prompt.requestPIN(reason: reason, attempt: attempt)
        typed.withLock { $0 = pin }
        return pin
    }
}

/// Prints each answer of the (simulated) sensor, so the terminal shows what happened.
private struct ShownSensor: BiometricSensor {
    let sensor: any BiometricSensor

    func evaluate(reason: String) async -> BiometricOutcome {
        let outcome = await sensor.evaluate(reason: reason)
        print("  Biometric (SIMULATED sensor): \(outcome.rawValue)")
        return outcome
    }
}
