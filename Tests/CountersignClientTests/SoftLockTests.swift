import CountersignClient
import Testing

@Suite("Soft lock: once per session, on the device only")
struct SoftLockTests {
    @Test("the first unlock prompts; later ones in the session do not")
    func oncePerSession() async {
        let authenticator = ScriptedLocalAuthenticator([.success(.biometric)])
        let lock = SoftLock(authenticator: authenticator, reason: "Unlock Countersign")
        #expect(await !lock.isUnlocked)
        #expect(await lock.unlock())
        #expect(await lock.unlock())
        #expect(await lock.unlockMethod == .biometric)
        #expect(await authenticator.prompts == ["Unlock Countersign"])
    }

    @Test("a cancelled or failed prompt leaves it locked, and the next unlock prompts again")
    func failureKeepsLocked() async {
        let authenticator = ScriptedLocalAuthenticator([.failure(.cancelled), .failure(.failed), .success(.devicePIN)])
        let lock = SoftLock(authenticator: authenticator)
        #expect(await !lock.unlock())
        #expect(await !lock.unlock())
        #expect(await !lock.isUnlocked)
        #expect(await lock.unlock())
        #expect(await authenticator.prompts.count == 3)
    }

    @Test("logout and lock clear the session flag")
    func logoutAndLock() async {
        let authenticator = ScriptedLocalAuthenticator([
            .success(.biometric), .success(.biometric), .success(.devicePIN),
        ])
        let lock = SoftLock(authenticator: authenticator)
        #expect(await lock.unlock())
        await lock.logout()
        #expect(await !lock.isUnlocked)
        #expect(await lock.unlock())
        await lock.lock()
        #expect(await lock.unlockMethod == nil)
        #expect(await lock.unlock())
        #expect(await authenticator.prompts.count == 3)
    }

    @Test("back from the background after the timeout locks; sooner does not")
    func backgroundTimeout() async {
        let authenticator = ScriptedLocalAuthenticator([.success(.biometric)])
        let lock = SoftLock(authenticator: authenticator, backgroundTimeout: .seconds(60))
        #expect(await lock.unlock())
        let start = ContinuousClock.now
        await lock.enteredBackground(at: start)
        await lock.enteredForeground(at: start.advanced(by: .seconds(59)))
        #expect(await lock.isUnlocked)
        await lock.enteredBackground(at: start)
        await lock.enteredForeground(at: start.advanced(by: .seconds(60)))
        #expect(await !lock.isUnlocked)
    }

    @Test("without a timeout the background never locks")
    func noTimeout() async {
        let lock = SoftLock(authenticator: ScriptedLocalAuthenticator([.success(.biometric)]))
        #expect(await lock.unlock())
        let start = ContinuousClock.now
        await lock.enteredBackground(at: start)
        await lock.enteredForeground(at: start.advanced(by: .seconds(86_400)))
        #expect(await lock.isUnlocked)
    }

    @Test("concurrent unlocks share one prompt")
    func concurrentUnlocks() async {
        let authenticator = ScriptedLocalAuthenticator([.success(.biometric)], delay: .milliseconds(50))
        let lock = SoftLock(authenticator: authenticator)
        async let first = lock.unlock()
        async let second = lock.unlock()
        let results = await [first, second]
        #expect(results == [true, true])
        #expect(await authenticator.prompts.count == 1)
    }

    @Test("a prompt still showing at logout cannot unlock the next session")
    func logoutDuringPrompt() async {
        let authenticator = GatedLocalAuthenticator()
        let lock = SoftLock(authenticator: authenticator)
        let unlocking = Task { await lock.unlock() }
        await authenticator.untilPrompted()
        await lock.logout()
        await authenticator.answer(.biometric)
        #expect(await unlocking.value == false)
        #expect(await !lock.isUnlocked)
    }

    @Test("the whole local stack unlocks with the PIN after three unrecognised biometrics, then never prompts again")
    func realLocalStack() async {
        // The simulator stops the process if prompted beyond its script; the PIN fake records an issue.
        let sensor = SimulatedBiometricSensor(script: [.notRecognised, .notRecognised, .notRecognised])
        let prompt = ScriptedPINPrompt(["482910"])
        let authenticator = FallbackLocalAuthenticator(
            sensor: sensor, pinVerifier: LocalPINVerifier(pin: "482910", iterations: 10), pinPrompt: prompt)
        let lock = SoftLock(authenticator: authenticator)
        #expect(await lock.unlock())
        #expect(await lock.unlock())
        #expect(await lock.unlockMethod == .devicePIN)
        #expect(await prompt.attempts == [1])
    }

    @Test("it holds nothing but the local authenticator and session state, so it has no way to reach a network")
    func noNetworkDependency() {
        let lock = SoftLock(authenticator: ScriptedLocalAuthenticator([]))
        // A new stored property (an HTTP client, a repository, a URL session) makes this fail, and
        // should make whoever adds it reread the seed: the soft lock makes zero network calls.
        // `$defaultActor` is the runtime's actor state, not a property.
        let stored = Set(Mirror(reflecting: lock).children.compactMap(\.label).filter { !$0.hasPrefix("$") })
        #expect(
            stored == [
                "authenticator", "reason", "backgroundTimeout", "unlockedWith", "backgroundedAt", "pendingUnlock",
                "epoch",
            ])
    }
}
