/// A biometric sensor simulator for Linux, demos and tests: each prompt answers with the next
/// scripted outcome. It is not a security control; a device build uses `LABiometricSensor`.
///
/// A prompt beyond the script stops the process: a flow that prompts more often than its author
/// expected is a bug to see, not an outcome to guess.
public actor SimulatedBiometricSensor: BiometricSensor {
    private let script: [BiometricOutcome]
    private var reasons: [String] = []

    /// A sensor that answers its prompts with `script`, in order.
    public init(script: [BiometricOutcome]) {
        self.script = script
    }

    /// The reasons shown so far, one per prompt.
    public var prompts: [String] { reasons }

    /// How many scripted outcomes are still to come.
    public var remaining: Int { script.count - reasons.count }

    /// The next scripted outcome; traps when the script is used up.
    public func evaluate(reason: String) async -> BiometricOutcome {
        guard reasons.count < script.count else {
            fatalError(
                "SimulatedBiometricSensor: prompt \(reasons.count + 1) (\"\(reason)\") was not scripted; the script has \(script.count)"
            )
        }
        reasons.append(reason)
        return script[reasons.count - 1]
    }
}
