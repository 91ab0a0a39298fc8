import CountersignClient
import Testing

@Suite("Local authentication: biometric, then the device PIN")
struct FallbackLocalAuthenticatorTests {
    static let pin = LocalPINVerifier(pin: "482910", iterations: 10)

    /// Runs one authentication and returns its result with what each prompt saw.
    func run(
        biometric: [BiometricOutcome], pins: [String?],
        verifier: LocalPINVerifier? = FallbackLocalAuthenticatorTests.pin
    ) async -> (
        result: Result<LocalAuthMethod, LocalAuthError>, sensor: SimulatedBiometricSensor, prompt: ScriptedPINPrompt
    ) {
        let sensor = SimulatedBiometricSensor(script: biometric)
        let prompt = ScriptedPINPrompt(pins)
        let authenticator = FallbackLocalAuthenticator(sensor: sensor, pinVerifier: verifier, pinPrompt: prompt)
        let result: Result<LocalAuthMethod, LocalAuthError>
        do {
            result = .success(try await authenticator.authenticate(reason: "Pay KES 1,020"))
        } catch let error as LocalAuthError {
            result = .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            result = .failure(.failed)
        }
        return (result, sensor, prompt)
    }

    @Test("a recognised biometric succeeds at once, without asking for the PIN")
    func approveFirstTime() async {
        let (result, sensor, prompt) = await run(biometric: [.approved], pins: [])
        #expect(result == .success(.biometric))
        #expect(await sensor.prompts == ["Pay KES 1,020"])
        #expect(await prompt.attempts.isEmpty)
    }

    @Test("a biometric recognised on the third try still counts as biometric")
    func approveThirdTime() async {
        let (result, _, prompt) = await run(biometric: [.notRecognised, .notRecognised, .approved], pins: [])
        #expect(result == .success(.biometric))
        #expect(await prompt.attempts.isEmpty)
    }

    @Test("three unrecognised biometrics fall back to the PIN")
    func deniedThriceThenPIN() async {
        let (result, sensor, prompt) = await run(
            biometric: [.notRecognised, .notRecognised, .notRecognised], pins: ["482910"])
        #expect(result == .success(.devicePIN))
        #expect(await sensor.remaining == 0)
        #expect(await prompt.attempts == [1])
    }

    @Test("no biometric on the device goes straight to the PIN")
    func unavailableThenPIN() async {
        let (result, sensor, _) = await run(biometric: [.unavailable], pins: ["482910"])
        #expect(result == .success(.devicePIN))
        #expect(await sensor.prompts.count == 1)
    }

    @Test("a wrong PIN may be corrected within three attempts")
    func wrongThenRightPIN() async {
        let (result, _, prompt) = await run(biometric: [.unavailable], pins: ["000000", "482910"])
        #expect(result == .success(.devicePIN))
        #expect(await prompt.attempts == [1, 2])
    }

    @Test("cancelling the biometric prompt stops at once")
    func cancelBiometric() async {
        let (result, _, prompt) = await run(biometric: [.notRecognised, .cancelled], pins: [])
        #expect(result == .failure(.cancelled))
        #expect(await prompt.attempts.isEmpty)
    }

    @Test("cancelling the PIN prompt stops at once")
    func cancelPIN() async {
        let (result, _, prompt) = await run(biometric: [.unavailable], pins: ["000000", nil])
        #expect(result == .failure(.cancelled))
        #expect(await prompt.attempts == [1, 2])
    }

    @Test("three wrong PINs fail")
    func wrongPINThrice() async {
        let (result, _, prompt) = await run(
            biometric: [.notRecognised, .notRecognised, .notRecognised], pins: ["1", "2", "3"])
        #expect(result == .failure(.failed))
        #expect(await prompt.attempts == [1, 2, 3])
    }

    @Test("without a PIN set: unrecognised biometrics fail, no biometric at all is not available")
    func noPINSet() async {
        #expect(
            await run(biometric: [.notRecognised, .notRecognised, .notRecognised], pins: [], verifier: nil).result
                == .failure(.failed))
        #expect(await run(biometric: [.unavailable], pins: [], verifier: nil).result == .failure(.notAvailable))
    }
}
