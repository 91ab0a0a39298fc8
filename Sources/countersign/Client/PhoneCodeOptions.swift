import ArgumentParser
import CountersignAPI
import CountersignClient

/// Where a one-time code sent by SMS comes from: `--code` (with `--verification`, the id of a code
/// asked for earlier), the server's SMS simulator (`--code-from-simulator`, test mode only), or the
/// terminal, where the person types what their phone received.
struct PhoneCodeOptions: ParsableArguments {
    @Option(help: "The 6-digit code the SMS carried (with --verification, if it was asked for earlier).")
    var code: String?

    @Option(help: "The verificationId of a code asked for earlier (countersign code).")
    var verification: String?

    @Flag(help: "Read the code from the server's SMS simulator (a server in test mode only).")
    var codeFromSimulator = false

    /// A code for `purpose` to `phone`: asked for now unless `--verification` names one, then taken
    /// from `--code`, the simulator, or the terminal.
    func obtain(api: CountersignAPIClient, phone: String, purpose: VerificationPurpose) async throws -> (
        verificationId: String, code: String
    ) {
        if let verification, let code { return (verification, code) }
        let before = codeFromSimulator ? try await api.simulatedMessages(to: phone).messages.count : 0
        let asked: PhoneVerificationResponse
        do {
            asked = try await api.requestCode(phone: phone, purpose: purpose)
        } catch {
            throw CommandFailure("the server did not send a code: \(Formatting.error(error))")
        }
        print("A code was sent by SMS to \(phone); it expires in \(asked.expiresIn / 60) minutes.")
        if let code { return (asked.verificationId, code) }
        if codeFromSimulator {
            let code = try await api.simulatedCode(to: phone, after: before)
            print("Code read from the SMS simulator: \(code)")
            return (asked.verificationId, code)
        }
        try TerminalInput.require(nil, flag: "--code or --code-from-simulator", question: "Code")
        guard let typed = TerminalInput.secret("The 6-digit code") else { throw CommandFailure("no code given") }
        return (asked.verificationId, typed)
    }
}
