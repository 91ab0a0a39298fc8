import CountersignClient
import Foundation

/// Questions asked on the terminal. Every one has a flag for scripts; with neither the flag nor a
/// terminal to ask on, the command fails with a message naming the flag rather than hang.
enum TerminalInput {
    /// Whether standard input is a terminal someone can answer on.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Fails unless `answer` was given or someone can be asked.
    static func require(_ answer: Any?, flag: String, question: String) throws {
        guard answer == nil, !isInteractive else { return }
        throw CommandFailure("no terminal to ask \"\(question)\"; pass \(flag)")
    }

    /// `question [y/N]`: `preset` when given (echoed, for the record), else the typed answer.
    static func confirm(_ question: String, preset: Bool?) -> Bool {
        if let preset {
            print("\(question) [y/N] \(preset ? "y" : "n")  (given in advance)")
            return preset
        }
        print("\(question) [y/N] ", terminator: "")
        fflush(nil)
        guard isInteractive, let line = readLine() else { return false }
        return ["y", "yes"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A secret typed without echo; nil when there is no terminal or nothing was typed.
    static func secret(_ prompt: String) -> String? {
        guard isInteractive, let typed = getpass(prompt + ": ") else { return nil }
        let value = String(cString: typed)
        return value.isEmpty ? nil : value
    }
}

/// The local PIN prompt of `FallbackLocalAuthenticator`: `preset` for the first try (from
/// `--local-pin`), then the terminal; nil, which cancels, when there is no one to ask.
struct TerminalPINPrompt: PINPrompt {
    let preset: String?
    let label: String

    func requestPIN(reason: String, attempt: Int) async -> String? {
        if attempt == 1, let preset { return preset }
        print("\(label) (\(reason)), attempt \(attempt)")
        return TerminalInput.secret(label)
    }
}

/// A refusal the command reports in its own words, exiting 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
