import Foundation

/// `flows --baseline`: the same load against two server builds, alternated round by round on the
/// same machine, so a change is measured against a fixed point rather than against the last run.
struct FlowComparison: Codable, Sendable {
    /// Which of the two servers a run measured.
    enum Side: String, Codable, Sendable {
        case baseline, current
    }

    /// One server's run in one round.
    struct Run: Codable, Sendable {
        let round: Int
        let server: Side
        let report: FlowReport
    }

    /// One server's runs, summed up by their medians.
    struct Summary: Codable, Sendable {
        let path: String
        /// Calls per flow: 3 (with verify) or 2 (the top-up carries the assertion).
        let callsPerFlow: Int
        let flowsPerSecond: [Double]
        let medianFlowsPerSecond: Double
        let medianServerCPUMicrosecondsPerFlow: Double
        let medianFlowP99Milliseconds: Double
        /// Statements per flow (median), where the server counts them.
        let medianStatementsPerFlow: Double?
        let errors: Int

        init(path: String, reports: [FlowReport]) {
            self.path = path
            callsPerFlow = reports.first?.callsPerFlow ?? 3
            flowsPerSecond = reports.map(\.flowsPerSecond)
            medianFlowsPerSecond = Self.median(flowsPerSecond)
            medianServerCPUMicrosecondsPerFlow = Self.median(reports.map(\.serverCPUMicrosecondsPerFlow))
            medianFlowP99Milliseconds = Self.median(reports.map { $0.latencies.last?.p99 ?? 0 })
            let statements = reports.compactMap { $0.database?.statementsPerFlow }
            medianStatementsPerFlow = statements.isEmpty ? nil : Self.median(statements)
            errors = reports.reduce(0) { $0 + $1.errors.values.reduce(0, +) + $1.warmupErrors }
        }

        /// The middle value (the mean of the two middle ones for an even count); 0 for none.
        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }

    let engine: String
    let baseline: Summary
    let current: Summary
    /// The current server's median over the baseline's: above 1 is faster.
    let flowsPerSecondRatio: Double
    /// The current server's median CPU per flow over the baseline's: above 1 costs more.
    let serverCPUPerFlowRatio: Double
    let runs: [Run]

    init(baselinePath: String, currentPath: String, runs: [Run]) {
        self.runs = runs
        engine = runs.first?.report.engine ?? "sqlite"
        baseline = Summary(path: baselinePath, reports: runs.filter { $0.server == .baseline }.map(\.report))
        current = Summary(path: currentPath, reports: runs.filter { $0.server == .current }.map(\.report))
        flowsPerSecondRatio =
            baseline.medianFlowsPerSecond > 0 ? current.medianFlowsPerSecond / baseline.medianFlowsPerSecond : 0
        serverCPUPerFlowRatio =
            baseline.medianServerCPUMicrosecondsPerFlow > 0
            ? current.medianServerCPUMicrosecondsPerFlow / baseline.medianServerCPUMicrosecondsPerFlow : 0
    }

    /// The console report: each round's flows/s, then the medians side by side.
    func render() -> String {
        var table = TextTable("flows (\(engine))", "baseline", "current", "current ÷ baseline")
        for (round, pair) in Dictionary(grouping: runs, by: \.round).sorted(by: { $0.key < $1.key }) {
            let base = pair.first { $0.server == .baseline }?.report.flowsPerSecond ?? 0
            let now = pair.first { $0.server == .current }?.report.flowsPerSecond ?? 0
            table.add("round \(round) flows/s", Figure.fixed(base), Figure.fixed(now), "")
        }
        table.add(
            "median flows/s", Figure.fixed(baseline.medianFlowsPerSecond), Figure.fixed(current.medianFlowsPerSecond),
            Figure.fixed(flowsPerSecondRatio, 3))
        table.add(
            "median server CPU µs/flow", Figure.count(baseline.medianServerCPUMicrosecondsPerFlow),
            Figure.count(current.medianServerCPUMicrosecondsPerFlow), Figure.fixed(serverCPUPerFlowRatio, 3))
        table.add(
            "median flow p99 ms", Figure.fixed(baseline.medianFlowP99Milliseconds, 2),
            Figure.fixed(current.medianFlowP99Milliseconds, 2), "")
        table.add(
            "median statements/flow", baseline.medianStatementsPerFlow.map { Figure.fixed($0, 1) } ?? "n/a",
            current.medianStatementsPerFlow.map { Figure.fixed($0, 1) } ?? "n/a", "")
        table.add("errors", "\(baseline.errors)", "\(current.errors)", "")
        return table.render()
            + "\nbaseline: \(baseline.path), \(baseline.callsPerFlow) calls a flow"
            + "\ncurrent:  \(current.path), \(current.callsPerFlow) calls a flow"
    }
}
