import ArgumentParser
import Foundation
import WebAuthn
import WebAuthnVectors

/// `countersign webauthn check FILE…`: runs WebAuthn test vectors through the verifier.
struct WebAuthnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webauthn", abstract: "WebAuthn verifier tools.", subcommands: [Check.self])

    /// Prints one line per vector ceremony and fails if any result differs from its expectation.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check WebAuthn test vectors (the format of Tests/Fixtures/webauthn/README.md).")

        @Argument(help: "Vector files (JSON).")
        var files: [String]

        func run() async throws {
            var mismatches = 0
            var total = 0
            for file in files {
                let outcomes: [VectorOutcome]
                do {
                    outcomes = try VectorRunner.run(fileAt: file)
                } catch {
                    print("\(file)\tunreadable\t-\t\(error)")
                    mismatches += 1
                    continue
                }
                for outcome in outcomes {
                    total += 1
                    if !outcome.matches { mismatches += 1 }
                    print(
                        "\(outcome.matches ? "ok  " : "FAIL") \(outcome.name) [\(outcome.ceremony)] expected=\(outcome.expected) got=\(outcome.got) reason=\(outcome.reason)"
                    )
                }
            }
            print("\(total - mismatches) matched, \(mismatches) differed")
            if mismatches > 0 { throw ExitCode(1) }
        }
    }
}
