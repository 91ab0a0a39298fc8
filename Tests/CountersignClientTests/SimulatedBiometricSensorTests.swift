import CountersignClient
import Testing

@Suite("Simulated biometric sensor")
struct SimulatedBiometricSensorTests {
    @Test("answers with the script, in order, and records each reason")
    func followsScript() async {
        let sensor = SimulatedBiometricSensor(script: [.notRecognised, .approved])
        #expect(await sensor.evaluate(reason: "first") == .notRecognised)
        #expect(await sensor.remaining == 1)
        #expect(await sensor.evaluate(reason: "second") == .approved)
        #expect(await sensor.prompts == ["first", "second"])
    }

    @Test("a prompt beyond the script stops the process")
    func failsLoudly() async {
        await #expect(processExitsWith: .failure) {
            let sensor = SimulatedBiometricSensor(script: [.approved])
            _ = await sensor.evaluate(reason: "scripted")
            _ = await sensor.evaluate(reason: "one too many")
        }
    }

    @Test("a scripted fake PIN prompt records a failure when asked once too often")
    func pinPromptFailsLoudly() async {
        let prompt = ScriptedPINPrompt(["1234"])
        #expect(await prompt.requestPIN(reason: "r", attempt: 1) == "1234")
        await withKnownIssue {
            #expect(await prompt.requestPIN(reason: "r", attempt: 2) == nil)
        }
    }
}
