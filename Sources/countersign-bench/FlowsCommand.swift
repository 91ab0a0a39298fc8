import ArgumentParser
import CountersignClient
import Foundation

/// `countersign-bench flows`: whole payment flows against a real `countersign serve` child.
struct FlowsCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract: "Concurrent options → sign → verify → top-up flows against a release server on 127.0.0.1."
    )

    @Option(help: "Concurrent clients, each with its own user, device key and connection.")
    var clients = 16

    @Option(help: "Measured seconds (after the warm-up).")
    var seconds = 10.0

    @Option(help: "Warm-up seconds, run but not counted.")
    var warmup = 2.0

    @Option(name: .customLong("max-flows"), help: "Most flows started in all, warm-up included.")
    var maxFlows = 200_000

    @Option(
        name: .customLong("database-url"),
        help:
            "postgres://… to run on PostgreSQL: a scratch database is created on that server and dropped afterwards. Default: SQLite in a fresh temp dir."
    )
    var databaseURL: String?

    @Flag(
        name: .customLong("reuse-database"),
        help:
            "Run in the --database-url database itself instead of a scratch one (phones are unique per run; its schema must be current)."
    )
    var reuseDatabase = false

    @Option(help: "The countersign server binary. Default: `countersign` next to this binary.")
    var server: String?

    @Option(
        help:
            "A baseline countersign server binary to compare with: each round runs it and the current server (--server), the first of the two alternating, and the report compares their medians."
    )
    var baseline: String?

    @Option(help: "Rounds with --baseline or --prefill; each runs both servers (or both stores) once.")
    var rounds = 3

    @Option(
        help:
            "USERS:POSTINGS: compare a store already holding this much history (users with their accounts, sessions and device keys; top-ups with their postings, idempotency keys, challenges and tokens) with an empty one, alternated round by round like --baseline. SQLite, or PostgreSQL with --database-url."
    )
    var prefill: Prefill?

    @Option(
        name: .customLong("prefill-store"),
        help:
            "With --prefill: where the prefilled store is kept, built if missing and reused if it holds the same prefill: an SQLite data directory, or with --database-url a database name on that server. Default: a temporary one, removed at the end."
    )
    var prefillStore: String?

    @Option(help: "Where to write the JSON results.")
    var json = ResultFile.defaultPath(mode: "flows")

    @Flag(
        name: .customLong("unkeyed-top-ups"),
        help:
            "Send top-ups without the SDK's Idempotency-Key, as the bench did before it drove the SDK: only to compare with results from then."
    )
    var unkeyedTopUps = false

    @Flag(
        name: .customLong("rate-limits"),
        help:
            "Keep the server's rate limits on, each raised to 1,000,000 a second so the load is never refused: to measure what counting them costs (in the database on PostgreSQL)."
    )
    var rateLimits = false

    @Flag(name: .customLong("keep-data"), help: "Keep the temp data directory (database, server log) after the run.")
    var keepData = false

    @Option(
        name: .customLong("metrics-port"),
        help: "Have the server serve /metrics on 127.0.0.1:PORT, to scrape while the bench runs.")
    var metricsPort: Int?

    @Option(
        name: .customLong("metrics-snapshots"),
        help:
            "With --metrics-port: write the server's /metrics just before the load (metrics-before.prom) and just after it (metrics-after.prom) into this directory."
    )
    var metricsSnapshots: String?

    /// Refuses loads that are unbounded or empty before anything starts.
    func validate() throws {
        guard (1...1_024).contains(clients) else { throw ValidationError("--clients must be 1…1024") }
        guard seconds > 0, seconds <= 600, warmup >= 0, warmup <= 60 else {
            throw ValidationError("--seconds must be in (0, 600], --warmup in [0, 60]")
        }
        guard maxFlows > 0 else { throw ValidationError("--max-flows must be positive") }
        if let metricsPort, !(1...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be 1…65535")
        }
        if metricsSnapshots != nil, metricsPort == nil {
            throw ValidationError("--metrics-snapshots needs --metrics-port")
        }
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be 1…20") }
        if baseline == nil, prefill == nil, rounds != 3 {
            throw ValidationError("--rounds needs --baseline or --prefill")
        }
        if baseline != nil || prefill != nil, metricsSnapshots != nil {
            throw ValidationError("--metrics-snapshots measures one server: leave out --baseline and --prefill")
        }
        if prefill != nil, baseline != nil || reuseDatabase {
            throw ValidationError(
                "--prefill compares two stores with one server: leave out --baseline and --reuse-database")
        }
        if let prefillStore {
            guard prefill != nil else { throw ValidationError("--prefill-store needs --prefill") }
            if databaseURL != nil,
                prefillStore.isEmpty
                    || !prefillStore.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
            {
                throw ValidationError("--prefill-store on PostgreSQL is a database name: a-z, 0-9 and _")
            }
        }
    }

    /// Measures the server once, or each server of `--baseline` for each round; prints and writes the
    /// report.
    func run() async throws {
        let current = server ?? ServerUnderTest.siblingExecutable()
        if let prefill { return try await comparePrefilled(prefill, server: current) }
        guard let baseline else {
            let report = try await measureOnce(server: current)
            print(report.render())
            try ResultFile.write(report, to: json)
            return
        }
        var runs: [FlowComparison.Run] = []
        for round in 1...rounds {
            // The first server alternates (A B, B A, …), so a drift over the run falls on both.
            let order =
                round % 2 == 1
                ? [(FlowComparison.Side.baseline, baseline), (.current, current)]
                : [(FlowComparison.Side.current, current), (.baseline, baseline)]
            for (side, path) in order {
                Console.say("round \(round) of \(rounds): \(side.rawValue) server \(path)")
                runs.append(FlowComparison.Run(round: round, server: side, report: try await measureOnce(server: path)))
            }
        }
        let comparison = FlowComparison(baselinePath: baseline, currentPath: current, runs: runs)
        print(comparison.render())
        try ResultFile.write(comparison, to: json)
    }

    /// `--prefill`: each round runs the server on an empty store and on the prefilled one, the first
    /// of the two alternating; the report compares them as `--baseline` compares two servers (the
    /// empty store is the baseline).
    private func comparePrefilled(_ prefill: Prefill, server: String) async throws {
        let store = try await PrefilledStore.prepare(prefill, name: prefillStore, serverURL: databaseURL)
        var runs: [FlowComparison.Run] = []
        do {
            for round in 1...rounds {
                let order: [(FlowComparison.Side, PrefilledStore?)] =
                    round % 2 == 1 ? [(.baseline, nil), (.current, store)] : [(.current, store), (.baseline, nil)]
                for (side, prefilled) in order {
                    Console.say("round \(round) of \(rounds): \(prefilled?.description ?? "empty store")")
                    runs.append(
                        FlowComparison.Run(
                            round: round, server: side, report: try await measureOnce(server: server, in: prefilled)))
                }
            }
        } catch {
            await store.remove()
            throw error
        }
        await store.remove()
        let comparison = FlowComparison(
            baselinePath: "empty store, \(server)", currentPath: "\(store.description), \(server)", runs: runs)
        print(comparison.render())
        try ResultFile.write(comparison, to: json)
    }

    /// One measurement of `server` in a fresh data directory (and scratch database), or in the
    /// `prefilled` store; always cleans up the server and the scratch database.
    private func measureOnce(server: String, in prefilled: PrefilledStore? = nil) async throws -> FlowReport {
        let machine = MachineInfo.current()
        let directory = try prefilled?.dataDirectory ?? Self.makeTemporaryDirectory()
        var scratch: ScratchDatabase?
        if let databaseURL, !reuseDatabase, prefilled == nil {
            scratch = try await ScratchDatabase.create(on: databaseURL)
        }
        let report: FlowReport
        do {
            report = try await measure(
                server: server, machine: machine, directory: directory,
                databaseURL: prefilled?.databaseURL ?? scratch?.url ?? databaseURL)
        } catch {
            await scratch?.drop()
            Console.say("server log and data kept in \(directory)")
            throw error
        }
        await scratch?.drop()
        if prefilled?.dataDirectory != nil {
            // The prefilled store's own directory: it stays until the store is removed.
        } else if keepData {
            Console.say("data kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
        return report
    }

    /// Starts the server, enrols and funds the users, runs the load, and always stops the server.
    private func measure(server: String, machine: MachineInfo, directory: String, databaseURL: String?)
        async throws -> FlowReport
    {
        let serverUnderTest = try ServerUnderTest.launch(
            executable: server,
            dataDirectory: directory, databaseURL: databaseURL, metricsAddress: metricsPort.map { "127.0.0.1:\($0)" },
            rateLimited: rateLimits)
        Console.say(
            "flows benchmark: \(clients) clients, \(warmup) s warm-up + \(seconds) s, \(databaseURL == nil ? "SQLite" : "PostgreSQL"), server pid \(serverUnderTest.process.pid) on \(serverUnderTest.baseURL) — \(machine.summary)"
        )
        do {
            try await serverUnderTest.waitUntilHealthy()
            // Enough for every flow the budget allows to one user, within the CLI's per-call limit.
            let funding = min(OperatorCLI.maximumFunding, Int64(maxFlows) * FlowClient.amount)
            let flowClients = try await FlowClient.prepare(
                count: clients, port: serverUnderTest.port, cli: OperatorCLI(server: serverUnderTest), funding: funding,
                unkeyed: unkeyedTopUps)
            defer { flowClients.forEach { $0.executor.shutdown() } }
            Console.say("\(flowClients.count) users enrolled and funded; running")
            try await snapshotMetrics("metrics-before.prom")
            let report = try await FlowLoad(
                server: serverUnderTest, clients: flowClients, warmupSeconds: warmup, seconds: seconds,
                maxFlows: maxFlows
            )
            .run(machine: machine)
            try await snapshotMetrics("metrics-after.prom")
            serverUnderTest.stop()
            return report
        } catch {
            serverUnderTest.stop()
            throw error
        }
    }

    /// Writes the server's `/metrics` to `name` in `--metrics-snapshots`, when asked to.
    private func snapshotMetrics(_ name: String) async throws {
        guard let metricsSnapshots, let metricsPort else { return }
        let executor = DedicatedThreadExecutor(name: "bench metrics scrape")
        defer { executor.shutdown() }
        let transport = LoopbackSocketTransport(port: metricsPort)
        let response = try await executor.run {
            try await transport.send(TransportRequest(method: "GET", path: "/metrics"))
        }
        guard response.status == 200 else { throw BenchError("GET /metrics answered \(response.status)") }
        try Data(response.body).write(to: URL(fileURLWithPath: metricsSnapshots).appendingPathComponent(name))
    }

    /// A fresh 0700 directory under the temp dir for the SQLite file, secrets and the server log.
    static func makeTemporaryDirectory() throws -> String {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("countersign-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }
}
