import Foundation
import Testing

/// `countersign serve --help` and the options table of docs/operations.md say the same: every flag
/// and every environment variable the help names is in the table, and every flag in the table is one
/// `serve` takes. A flag added without its line in the docs (or a line left for a flag removed) fails.
@Suite("serve's options and their docs")
struct ServeOptionsDocTests {
    static let operations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/operations.md")

    /// The table's rows: from its header to the first line that is not a row.
    static func tableRows() throws -> [String] {
        let lines = try String(contentsOf: operations, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("| `serve` flag |") })
        return Array(lines[(start + 2)...].prefix { $0.hasPrefix("|") })
    }

    static func matches(_ pattern: Regex<(Substring, Substring)>, in text: String) -> Set<String> {
        Set(text.matches(of: pattern).map { String($0.1) })
    }

    @Test("every serve flag and environment variable is in docs/operations.md, and no other flag")
    func documented() throws {
        let help = try CommandLineTests.run(["serve", "--help"])
        #expect(help.status == 0, "\(help.output)")
        // The help wraps its lines: one space for every run of white space.
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let flags = Self.matches(/\s(--[a-z0-9][a-z0-9-]+)/, in: text).subtracting(["--help", "--version"])
        let variables = Self.matches(/env ([A-Z][A-Z0-9_]+)/, in: text)
        #expect(flags.count > 40, "\(flags.sorted())")

        let rows = try Self.tableRows().joined(separator: "\n")
        let listed = Self.matches(/`(--[a-z0-9][a-z0-9-]+)/, in: rows)
        #expect(
            flags.subtracting(listed).isEmpty,
            "in --help, not in docs/operations.md: \(flags.subtracting(listed).sorted())")
        #expect(
            listed.subtracting(flags).isEmpty,
            "in docs/operations.md, not in --help: \(listed.subtracting(flags).sorted())")
        let missing = variables.filter { !rows.contains($0) }
        #expect(missing.isEmpty, "environment in --help, not in docs/operations.md: \(missing.sorted())")
    }
}
