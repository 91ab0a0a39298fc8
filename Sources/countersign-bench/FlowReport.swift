/// The flows benchmark's result: throughput, latencies, errors, and the server's memory and CPU.
struct FlowReport: Codable, Sendable {
    /// The targets on the 2-core reference machine, client included.
    struct Targets: Codable, Sendable {
        var flowsPerSecond = 1_000.0
        /// Applied to the whole flow's p99, the strictest reading.
        var p99Milliseconds = 25.0
        var peakResidentMB = 150.0
    }

    /// Which targets the run met.
    struct Verdict: Codable, Sendable {
        let throughput: Bool
        let latency: Bool
        let memory: Bool
    }

    /// What ran where: machine, `sqlite` or `postgres`, clients, window, and the flows counted in it.
    let machine: MachineInfo
    let engine: String
    let clients: Int
    /// 3: options, verify, top-up with the token (the seed's flow); 2: options, top-up carrying the assertion.
    let callsPerFlow: Int
    let warmupSeconds: Double
    let measuredSeconds: Double
    let flows: Int
    let flowsPerSecond: Double
    let latencies: [LatencySummary]
    let errors: [String: Int]
    /// True if `--max-flows` stopped the clients before the window ended: flows/s is then too low.
    let flowCapReached: Bool
    /// Flows and failures during the warm-up, not counted above.
    let warmupFlows: Int
    let warmupErrors: Int
    /// The server's VmHWM at the end of the run, and its RSS then.
    let serverPeakResidentMB: Double
    let serverResidentMB: Double
    /// CPU over the measured window: cores kept busy, and CPU time per completed flow.
    let serverCPUCores: Double
    let serverCPUMicrosecondsPerFlow: Double
    /// Of the server's CPU time, the fraction spent in the kernel (syscalls, fsync's page work).
    let serverSystemCPUShare: Double
    /// The whole machine over the window: busy CPUs (every process, PostgreSQL included) and
    /// CPUs idle waiting on I/O (fsync).
    let machineBusyCores: Double
    let machineIOWaitCores: Double
    /// The bench's own CPU over the window (it shares the machine with the server).
    let benchCPUCores: Double
    let benchCPUMicrosecondsPerFlow: Double
    /// The targets, and which of them this run met.
    let targets: Targets
    let verdict: Verdict
    /// Statements, transactions and reads per flow, from the server's metrics.
    var database: DatabaseWork?

    /// The console report.
    func render() -> String {
        var summary = TextTable("flows (\(engine), \(clients) clients)", "value", "target", "met")
        summary.add(
            "flows/s", Figure.fixed(flowsPerSecond), "≥ \(Figure.count(targets.flowsPerSecond))",
            verdict.throughput ? "yes" : "NO")
        summary.add(
            "flow p99 ms", Figure.fixed(latencies.last?.p99 ?? 0, 2), "< \(Figure.fixed(targets.p99Milliseconds, 0))",
            verdict.latency ? "yes" : "NO")
        summary.add(
            "server peak RSS MB", Figure.fixed(serverPeakResidentMB), "< \(Figure.fixed(targets.peakResidentMB, 0))",
            verdict.memory ? "yes" : "NO")
        summary.add("flows completed", "\(flows) in \(Figure.fixed(measuredSeconds, 1)) s", "", "")
        summary.add("errors", "\(errors.values.reduce(0, +))", "", "")
        summary.add(
            "server CPU (cores, µs/flow)",
            "\(Figure.fixed(serverCPUCores, 2)), \(Figure.count(serverCPUMicrosecondsPerFlow))", "", "")
        summary.add("  of which kernel", "\(Figure.fixed(serverSystemCPUShare * 100, 0))%", "", "")
        summary.add(
            "bench CPU (cores, µs/flow)",
            "\(Figure.fixed(benchCPUCores, 2)), \(Figure.count(benchCPUMicrosecondsPerFlow))", "", "")
        summary.add(
            "machine busy / iowait (cores)",
            "\(Figure.fixed(machineBusyCores, 2)) / \(Figure.fixed(machineIOWaitCores, 2))", "", "")
        if let database {
            summary.add(
                "statements / transactions / reads per flow",
                "\(Figure.fixed(database.statementsPerFlow, 1)) / \(Figure.fixed(database.transactionsPerFlow, 1)) / \(Figure.fixed(database.readsPerFlow, 1))",
                "", "")
            if engine == "postgres" {
                summary.add("  PostgreSQL exchanges per flow", Figure.fixed(database.exchangesPerFlow, 1), "≤ 10", "")
            }
        }

        var calls = TextTable("latency ms", "count", "p50", "p90", "p99", "max", "mean")
        for latency in latencies {
            calls.add(
                latency.name, "\(latency.count)", Figure.fixed(latency.p50, 2), Figure.fixed(latency.p90, 2),
                Figure.fixed(latency.p99, 2), Figure.fixed(latency.max, 2), Figure.fixed(latency.mean, 2))
        }
        var text = summary.render() + "\n\n" + calls.render()
        if flowCapReached {
            text += "\n\nwarning: --max-flows was reached before the window ended; flows/s is understated"
        }
        if !errors.isEmpty {
            var failures = TextTable("errors (call status code)", "count")
            for (key, count) in errors.sorted(by: { $0.value > $1.value }) { failures.add(key, "\(count)") }
            text += "\n\n" + failures.render()
        }
        return text
    }
}
