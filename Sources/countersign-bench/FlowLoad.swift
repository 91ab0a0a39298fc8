import Foundation

/// Runs the clients concurrently against a ready server and turns what they measured into a report.
struct FlowLoad {
    /// The server and the clients (one enrolled user each), and how long and how much to run.
    let server: ServerUnderTest
    let clients: [FlowClient]
    let warmupSeconds: Double
    let seconds: Double
    let maxFlows: Int

    /// Warm-up, then the measured window; CPU is sampled at the window's edges.
    func run(machine: MachineInfo) async throws -> FlowReport {
        let start = ContinuousClock.now
        let window = FlowWindow(
            measureFrom: start + .seconds(warmupSeconds), end: start + .seconds(warmupSeconds + seconds))
        let budget = FlowBudget(maxFlows)
        let clients = self.clients
        async let samples = withTaskGroup(of: FlowSamples.self) { group in
            for client in clients { group.addTask { await client.run(window: window, budget: budget) } }
            return await group.reduce(into: FlowSamples()) { $0.merge($1) }
        }
        // Sample the server, the bench and the whole machine at the edges of the measured window.
        try await ContinuousClock().sleep(until: window.measureFrom)
        let (serverBefore, benchBefore, machineBefore) = (
            server.stats(), ProcessStats.ownCPUSeconds(), MachineCPU.now()
        )
        try await ContinuousClock().sleep(until: window.end)
        let (serverAfter, benchAfter, machineAfter) = (server.stats(), ProcessStats.ownCPUSeconds(), MachineCPU.now())
        let merged = await samples
        guard let serverBefore, let serverAfter else {
            throw BenchError("the server exited during the run:\n\(server.logTail())")
        }

        let flows = merged.flows
        let serverCPU = serverAfter.cpuSeconds - serverBefore.cpuSeconds
        let serverSystemCPU = serverAfter.systemSeconds - serverBefore.systemSeconds
        let machineCPU = machineAfter.since(machineBefore, cpus: machine.cpus)
        let benchCPU = (benchAfter.user + benchAfter.system) - (benchBefore.user + benchBefore.system)
        let perFlow = { (cpu: Double) in flows > 0 ? cpu / Double(flows) * 1e6 : 0 }
        let calls = clients.first?.calls ?? 3
        let latencies = [
            LatencySummary(name: "GET /biometric/auth/options", milliseconds: merged.options),
            calls == 3 ? LatencySummary(name: "POST /biometric/auth/verify", milliseconds: merged.verify) : nil,
            LatencySummary(
                name: calls == 3 ? "POST /user/topup" : "POST /user/topup with the assertion",
                milliseconds: merged.topUp),
            LatencySummary(name: "whole flow (incl. client signing)", milliseconds: merged.flow),
        ].compactMap { $0 }
        let targets = FlowReport.Targets()
        let flowsPerSecond = Double(flows) / seconds
        let peak = serverAfter.peakResidentMB
        return FlowReport(
            machine: machine, engine: server.databaseURL == nil ? "sqlite" : "postgres", clients: clients.count,
            callsPerFlow: calls,
            warmupSeconds: warmupSeconds, measuredSeconds: seconds, flows: flows, flowsPerSecond: flowsPerSecond,
            latencies: latencies, errors: merged.errors, flowCapReached: budget.isSpent,
            warmupFlows: merged.warmupFlows, warmupErrors: merged.warmupErrors,
            serverPeakResidentMB: peak, serverResidentMB: serverAfter.residentMB,
            serverCPUCores: serverCPU / seconds, serverCPUMicrosecondsPerFlow: perFlow(serverCPU),
            serverSystemCPUShare: serverCPU > 0 ? serverSystemCPU / serverCPU : 0,
            machineBusyCores: machineCPU.busyCores, machineIOWaitCores: machineCPU.ioWaitCores,
            benchCPUCores: benchCPU / seconds, benchCPUMicrosecondsPerFlow: perFlow(benchCPU),
            targets: targets,
            verdict: .init(
                throughput: flowsPerSecond >= targets.flowsPerSecond,
                latency: flows > 0 && (latencies.last?.p99 ?? .infinity) < targets.p99Milliseconds,
                memory: peak < targets.peakResidentMB
            )
        )
    }
}
