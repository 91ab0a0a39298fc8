import Foundation
import Testing

/// SQL text lives in repositories (`*Repository.swift`), and nowhere else in the server but where
/// `docs/design/conventions.md` says why: the audit's checks read the store independently of the
/// code that writes it, the store purger deletes by age across many tables, and the simulators own
/// the tables of the outside systems they stand in for. A statement anywhere else fails here.
@Suite("Where SQL lives")
struct SQLPlacementTests {
    static let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/CountersignServer").standardizedFileURL

    /// Files that may hold SQL without being a repository.
    static func allowed(_ path: String) -> Bool {
        path.hasSuffix("Repository.swift") || path.contains("/Audit/") || path.hasSuffix("/App/StorePurger.swift")
            || path.contains("/Payments/Simulated") || path.hasSuffix("/Messaging/SimulatedSMSSender.swift")
    }

    static let statement =
        #"(SELECT [^`]* FROM [a-z_]+|INSERT INTO [a-z_]+|UPDATE [a-z_]+ SET|DELETE FROM [a-z_]+|pg_advisory)"#

    @Test("no SQL statement outside repositories and the documented exceptions")
    func onlyInRepositories() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.server, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100, "the server's sources were not found at \(Self.server.path)")
        let statement = try Regex(Self.statement)
        var found: [String] = []
        for file in files where !Self.allowed(file.path) {
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() where line.contains(statement) {
                found.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "SQL outside a repository:\n\(found.joined(separator: "\n"))")
    }
}
