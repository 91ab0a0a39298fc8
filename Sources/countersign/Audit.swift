import ArgumentParser
import CountersignServer
import Foundation

/// `countersign audit`: checks the books (see `LedgerAudit`), records the outcome in `audit_runs`
/// (the operator console shows the last), and exits 0 when they hold, 1 on any breach, 2 when the
/// store cannot be opened.
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the ledger's invariants; exit 1 on any breach, 2 if the store cannot be opened.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: "Checks to run at once, each on its own connection, 1 to 8. Default: the machine's cores, at most 4.")
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...8).contains(jobs) { throw ValidationError("--jobs must be 1 to 8") }
    }

    func run() async throws {
        do {
            try await store.withExistingStore { services in
                let (report, _) = try await services.operators.audit(
                    via: "cli", connections: jobs ?? min(ProcessInfo.processInfo.activeProcessorCount, 4))
                // One write for the whole report: standard error (a warning of the database driver's)
                // shares the terminal or file, and must not land inside it.
                let text = json ? try Self.json(report) : Self.table(report, engine: "\(services.database.engine)")
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
                if !report.passed { throw ExitCode(1) }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("countersign audit: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    static func json(_ report: LedgerAuditReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// One line per check: its name, ok or FAIL, how many rows break it and a few of their ids.
    static func table(_ report: LedgerAuditReport, engine: String) -> String {
        let width = report.results.map(\.name.count).max() ?? 0
        var lines = report.results.map { result in
            let name = result.name.padding(toLength: width, withPad: " ", startingAt: 0)
            guard !result.passed else { return "\(name)  ok" }
            let more = result.offending > Int64(result.samples.count) ? ", …" : ""
            return "\(name)  FAIL  \(result.offending) (\(result.samples.joined(separator: ", "))\(more))"
        }
        let failed = report.failures.count
        lines.append(
            failed == 0
                ? "ledger audit on \(engine): all \(report.results.count) checks passed"
                : "ledger audit on \(engine): \(failed) of \(report.results.count) checks FAILED")
        return lines.joined(separator: "\n")
    }
}
