import ArgumentParser
import CountersignClient
import CountersignHarness
import Foundation

/// `countersign-bench flows`: whole payment flows against a real `countersign serve` child.
struct FlowsCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract:
            "Concurrent options → sign → verify → top-up flows (or options → sign → top-up, --calls 2) against a release server on 127.0.0.1."
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

    @Option(
        help:
            "Calls per flow: 3 (options, verify, the top-up with the token: the seed's flow) or 2 (options, the top-up carrying the assertion)."
    )
    var calls = 3

    @Option(
        name: .customLong("baseline-calls"),
        help:
            "With --baseline: the calls per flow of the baseline's runs (default: --calls). With the same binary as --baseline and --server, compares the two flows."
    )
    var baselineCalls: Int?

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
        guard [2, 3].contains(calls), [2, 3].contains(baselineCalls ?? 3) else {
            throw ValidationError("--calls and --baseline-calls must be 2 or 3")
        }
        if baseline == nil, baselineCalls != nil { throw ValidationError("--baseline-calls needs --baseline") }
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
            let report = try await measureOnce(server: current, calls: calls)
            print(report.render())
            try ResultFile.write(report, to: json)
            return
        }
        var runs: [FlowComparison.Run] = []
        for round in 1...rounds {
            // The first server alternates (A B, B A, …), so a drift over the run falls on both.
            let base = (FlowComparison.Side.baseline, baseline, baselineCalls ?? calls)
            let now = (FlowComparison.Side.current, current, calls)
            for (side, path, calls) in round % 2 == 1 ? [base, now] : [now, base] {
                Console.say("round \(round) of \(rounds): \(side.rawValue) server \(path), \(calls) calls a flow")
                runs.append(
                    FlowComparison.Run(
                        round: round, server: side, report: try await measureOnce(server: path, calls: calls)))
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
                            round: round, server: side,
                            report: try await measureOnce(server: server, calls: calls, in: prefilled)))
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
    private func measureOnce(server: String, calls: Int, in prefilled: PrefilledStore? = nil) async throws
        -> FlowReport
    {
        let machine = MachineInfo.current()
        if let directory = prefilled?.dataDirectory {
            // The prefilled SQLite store's own directory: it stays until the store is removed.
            return try await measure(
                server: server, calls: calls, machine: machine, directory: directory, databaseURL: nil)
        }
        // A prefilled PostgreSQL store is its own database: no scratch one beside it.
        return try await ScratchDatabase.withFreshStore(
            databaseURL: prefilled?.databaseURL ?? databaseURL, scratch: prefilled == nil && !reuseDatabase,
            keepData: keepData
        ) { directory, url in
            try await measure(server: server, calls: calls, machine: machine, directory: directory, databaseURL: url)
        }
    }

    /// Starts the server, enrols and funds the users, runs the load, and always stops the server.
    private func measure(server: String, calls: Int, machine: MachineInfo, directory: String, databaseURL: String?)
        async throws -> FlowReport
    {
        // /metrics always: the statements per flow come from the server's own counts.
        let metricsPort = try self.metricsPort ?? LoopbackPort.free()
        let serverUnderTest = try ServerUnderTest.launch(
            executable: server,
            dataDirectory: directory, databaseURL: databaseURL, metricsAddress: "127.0.0.1:\(metricsPort)",
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
                unkeyed: unkeyedTopUps
            ).map { client in
                var client = client
                client.calls = calls
                return client
            }
            defer { flowClients.forEach { $0.executor.shutdown() } }
            Console.say("\(flowClients.count) users enrolled and funded; running")
            // A build without /metrics reports no statement counts.
            let metered = serverUnderTest.servesMetrics
            let before = metered ? try await scrapeMetrics(port: metricsPort, saveAs: "metrics-before.prom") : nil
            var report = try await FlowLoad(
                server: serverUnderTest, clients: flowClients, warmupSeconds: warmup, seconds: seconds,
                maxFlows: maxFlows
            )
            .run(machine: machine)
            if let before {
                let after = try await scrapeMetrics(port: metricsPort, saveAs: "metrics-after.prom")
                report.database = DatabaseWork(
                    before: String(decoding: before, as: UTF8.self), after: String(decoding: after, as: UTF8.self),
                    flows: report.flows + report.warmupFlows)
            }
            serverUnderTest.stop()
            return report
        } catch {
            serverUnderTest.stop()
            throw error
        }
    }

    /// The server's `/metrics`, also written to `name` in `--metrics-snapshots` when asked to.
    private func scrapeMetrics(port metricsPort: Int, saveAs name: String) async throws -> [UInt8] {
        let executor = DedicatedThreadExecutor(name: "bench metrics scrape")
        defer { executor.shutdown() }
        let transport = LoopbackSocketTransport(port: metricsPort)
        let response = try await executor.run {
            try await transport.send(TransportRequest(method: "GET", path: "/metrics"))
        }
        guard response.status == 200 else { throw BenchError("GET /metrics answered \(response.status)") }
        if let metricsSnapshots {
            try Data(response.body).write(to: URL(fileURLWithPath: metricsSnapshots).appendingPathComponent(name))
        }
        return response.body
    }
}
