import ArgumentParser
import Foundation

/// `countersign-bench streams`: thousands of open transfer event streams on one server, their
/// memory, and how soon a finished transfer's final version reaches its stream.
struct StreamsCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract:
            "Open transfer event streams (SSE) against a release server on 127.0.0.1: memory and delivery latency."
    )

    @Option(help: "Open transfers, each with one event stream.")
    var streams = 10_000

    @Option(help: "Transfers to finish (decline) once every stream is open.")
    var finish = 1_000

    @Option(help: "Payers the transfers are spread over; each creates and declines its own on one connection.")
    var payers = 8

    @Option(
        name: .customLong("database-url"),
        help:
            "postgres://… to run on PostgreSQL: a scratch database is created on that server and dropped afterwards. Default: SQLite in a fresh temp dir."
    )
    var databaseURL: String?

    @Option(help: "The countersign server binary. Default: `countersign` next to this binary.")
    var server: String?

    @Option(help: "Seconds with every stream open and nothing changing, over which the server's CPU is measured.")
    var idle = 10.0

    @Option(help: "The most seconds the whole run may take; past it the bench stops the server and fails.")
    var timeout = 900.0

    @Option(help: "Event-loop threads for the bench's streams.")
    var threads = 2

    @Option(help: "Where to write the JSON results.")
    var json = ResultFile.defaultPath(mode: "streams")

    @Flag(name: .customLong("keep-data"), help: "Keep the temp data directory (database, server log) after the run.")
    var keepData = false

    /// Refuses runs that are empty or larger than the file-descriptor limit allows.
    func validate() throws {
        guard (1...50_000).contains(streams) else { throw ValidationError("--streams must be 1…50000") }
        guard (1...streams).contains(finish) else { throw ValidationError("--finish must be 1…--streams") }
        guard (1...64).contains(payers), payers <= streams else { throw ValidationError("--payers must be 1…64") }
        guard idle >= 0, idle <= 120, timeout > 0, timeout <= 3_600 else {
            throw ValidationError("--idle must be in [0, 120], --timeout in (0, 3600]")
        }
        guard (1...16).contains(threads) else { throw ValidationError("--threads must be 1…16") }
    }

    /// Runs once, prints the tables and writes the JSON; always cleans up the server and scratch database.
    func run() async throws {
        try Self.raiseDescriptorLimit(to: rlim_t(streams) + 1_024)
        let report = try await ScratchDatabase.withFreshStore(
            databaseURL: databaseURL, scratch: true, keepData: keepData
        ) { directory, url in
            try await measure(directory: directory, databaseURL: url)
        }
        print(report.render())
        try ResultFile.write(report, to: json)
    }

    private func measure(directory: String, databaseURL: String?) async throws -> StreamsReport {
        let machine = MachineInfo.current()
        let serverUnderTest = try ServerUnderTest.launch(
            executable: server ?? ServerUnderTest.siblingExecutable(), dataDirectory: directory,
            databaseURL: databaseURL,
            // The longest quote, so no open transfer expires while the streams are held.
            extraArguments: ["--quote-seconds", "3600"])
        Console.say(
            "streams benchmark: \(streams) streams, \(finish) finished, \(databaseURL == nil ? "SQLite" : "PostgreSQL"), server pid \(serverUnderTest.process.pid) on \(serverUnderTest.baseURL) — \(machine.summary)"
        )
        do {
            let report = try await StreamsRun(
                server: serverUnderTest, streams: streams, finish: finish, payerCount: payers, idleSeconds: idle,
                threads: threads, deadline: ContinuousClock.now + .seconds(timeout)
            ).run(machine: machine, engine: databaseURL == nil ? "sqlite" : "postgres")
            serverUnderTest.stop()
            return report
        } catch {
            serverUnderTest.stop()
            throw error
        }
    }

    /// Raises this process's soft limit on open files to `wanted` (at most the hard limit); the
    /// server child inherits it. Each stream holds one socket on each side.
    static func raiseDescriptorLimit(to wanted: rlim_t) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw BenchError("getrlimit failed") }
        guard limit.rlim_max >= wanted else {
            throw BenchError("the hard limit on open files is \(limit.rlim_max); \(wanted) are needed (ulimit -Hn)")
        }
        limit.rlim_cur = max(limit.rlim_cur, wanted)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw BenchError("setrlimit failed") }
    }
}
