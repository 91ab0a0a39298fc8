import Foundation
import Testing
import WebAuthn
import WebAuthnVectors

@Suite("Shared WebAuthn test vectors")
struct VectorTests {
    /// Vectors whose expectation this verifier knowingly does not meet, with the reason. Keep it short; ideally empty.
    /// A gap that starts passing fails the test, so the list cannot go stale.
    static let knownGaps: [String: String] = [:]

    @Test("the vector directory exists and holds the expected files")
    func directoryIsPresent() throws {
        let files = VectorFiles.all.filter { $0 != VectorFiles.missingSentinel }
        #expect(!files.isEmpty, "no vectors found at \(VectorFiles.directory.path): Tests/Fixtures/webauthn is missing")
        #expect(files.count >= 30, "only \(files.count) vector files found under \(VectorFiles.directory.path)")
    }

    @Test("vector verdicts match", arguments: VectorFiles.all)
    func vector(path: String) throws {
        try #require(path != VectorFiles.missingSentinel, "\(path)")
        let outcomes = try VectorRunner.run(fileAt: path)
        #expect(!outcomes.isEmpty, "\(path) holds neither a registration nor an authentication")
        for outcome in outcomes {
            print("[vector] \(VectorFiles.shortName(path)): \(outcome)")
            let key = "\(outcome.name) \(outcome.ceremony)"
            if let reason = Self.knownGaps[key] {
                print("[vector] KNOWN GAP \(key): \(reason)")
                withKnownIssue("\(key): \(reason)") {
                    #expect(outcome.matches, "\(outcome)")
                }
            } else {
                #expect(outcome.matches, "\(outcome)")
            }
        }
    }
}
