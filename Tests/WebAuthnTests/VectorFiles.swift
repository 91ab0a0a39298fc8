import Foundation

/// Locates the WebAuthn test vectors checked in under `Tests/Fixtures/webauthn` (and its `mldsa/`).
enum VectorFiles {
    /// `Tests/Fixtures/webauthn`, computed from this file's path.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // WebAuthnTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Fixtures/webauthn")

    /// Every `*.json` under the directory and `mldsa/`, sorted; a missing directory yields a sentinel that fails.
    static let all: [String] = {
        let paths = [directory, directory.appendingPathComponent("mldsa")].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }
                .map { folder.appendingPathComponent($0).path }
        }
        return paths.isEmpty ? [missingSentinel] : paths.sorted()
    }()

    /// Stands for "no vector files were found", so the parameterised test fails instead of running zero cases.
    static let missingSentinel = "MISSING: no *.json vectors under \(directory.path)"

    /// A short name for test output: `mldsa/x.json`.
    static func shortName(_ path: String) -> String {
        path.hasPrefix(directory.path) ? String(path.dropFirst(directory.path.count + 1)) : path
    }
}
