import CountersignClient
import Testing

/// A PIN prompt that types the scripted entries in order (`nil` = the user cancelled); a prompt
/// beyond the script is a test failure.
actor ScriptedPINPrompt: PINPrompt {
    private let entries: [String?]
    /// The attempt numbers the authenticator asked with.
    private(set) var attempts: [Int] = []

    init(_ entries: [String?]) {
        self.entries = entries
    }

    func requestPIN(reason: String, attempt: Int) async -> String? {
        guard attempts.count < entries.count else {
            Issue.record("PIN prompt \(attempt) was not scripted (script has \(entries.count))")
            return nil
        }
        attempts.append(attempt)
        return entries[attempts.count - 1]
    }
}
