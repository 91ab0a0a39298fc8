import CountersignServer
import Foundation
import Testing

/// `serve`'s settings table, `countersign serve --help` and the options table of docs/operations.md
/// say the same: every setting (its flag and its environment variable) is in the help and in a row
/// of the docs, and every flag in the docs is a setting. A setting added without its line in the
/// docs (or a line left for a setting removed) fails.
@Suite("serve's settings and their docs")
struct ServeSettingsDocTests {
    static let operations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/operations.md")

    /// The table's rows: from its header to the first line that is not a row.
    static func tableRows() throws -> [String] {
        let lines = try String(contentsOf: operations, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("| `serve` flag |") })
        return Array(lines[(start + 2)...].prefix { $0.hasPrefix("|") })
    }

    static let documented = ServeSettings.all.filter { !$0.hidden }

    @Test("each setting has one name, one environment variable, and a help line")
    func table() {
        let names = ServeSettings.all.map(\.name) + [ServeSettings.configFile]
        #expect(Set(names).count == names.count, "a name used twice")
        let variables = ServeSettings.all.map(\.environment) + [ServeSettings.configFileEnvironment]
        #expect(Set(variables).count == variables.count, "an environment variable used twice")
        for setting in ServeSettings.all {
            #expect(!setting.help.isEmpty, "\(setting.name)")
            #expect(setting.name.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) != nil, "\(setting.name)")
            #expect(setting.environment.wholeMatch(of: /[A-Z][A-Z0-9_]*/) != nil, "\(setting.environment)")
        }
    }

    @Test("every setting is in docs/operations.md with its environment variable, and no other flag")
    func docs() throws {
        let rows = try Self.tableRows()
        for setting in Self.documented {
            let needle = setting.isSecret ? "`\(setting.environment)`" : "`\(setting.flag)"
            let row = rows.first { $0.contains(needle) }
            #expect(row != nil, "\(setting.isSecret ? setting.environment : setting.flag) not in docs/operations.md")
            #expect(
                row?.contains("`\(setting.environment)") ?? true,
                "\(setting.flag)'s row in docs/operations.md does not name \(setting.environment)")
        }
        let flags = Set(Self.documented.filter { !$0.isSecret }.map(\.flag) + ["--" + ServeSettings.configFile])
        let listed = Set(rows.joined(separator: "\n").matches(of: /`(--[a-z0-9][a-z0-9-]+)/).map { String($0.1) })
        #expect(listed.subtracting(flags).isEmpty, "in docs/operations.md, no setting: \(listed.subtracting(flags))")
        #expect(flags.subtracting(listed).isEmpty, "a setting not in docs/operations.md: \(flags.subtracting(listed))")
    }

    @Test("serve --help lists every setting but the hidden ones, with its environment variable")
    func help() async throws {
        let help = try await CommandLineTests.run(["serve", "--help"])
        #expect(help.status == 0, "\(help.output)")
        // The help wraps its lines: one space for every run of white space.
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in Self.documented {
            if !setting.isSecret { #expect(text.contains(" \(setting.flag)"), "\(setting.flag) not in --help") }
            #expect(text.contains(setting.environment), "\(setting.environment) not in --help")
        }
        for setting in ServeSettings.all where setting.hidden {
            #expect(!text.contains(" \(setting.flag) "), "\(setting.flag) is hidden but in --help")
        }
        #expect(text.contains("--config <file>"))
    }
}
