/// What `countersign-bench streams` measured, as printed and as written to JSON.
struct StreamsReport: Codable, Sendable {
    let machine: MachineInfo
    let engine: String
    let streams: Int
    let finished: Int
    let payers: Int
    /// Seconds to create the transfers through the API, to open every stream, and until every
    /// stream had its transfer at `AUTHORIZATION_REQUIRED`.
    let createSeconds: Double
    let openSeconds: Double
    let readySeconds: Double
    /// Streams that had received their first event / were at `AUTHORIZATION_REQUIRED` when measured.
    let streamsWithFirstEvent: Int
    let streamsReady: Int
    /// Resident memory with every stream open (VmRSS), the server's peak (VmHWM), and the bench's.
    let serverResidentMB: Double
    let serverPeakResidentMB: Double
    let benchResidentMB: Double
    /// The server's CPU (cores) while every stream was open and nothing changed, over `idleSeconds`.
    let idleSeconds: Double
    let idleServerCores: Double
    /// From sending the decline to the final event's arrival on its stream (an upper bound of the
    /// commit-to-arrival time: it includes the commit), and from the decline's answer (the commit
    /// had happened by then) to the arrival, which can be negative when the event wins the race.
    let fromSend: LatencySummary
    let fromAnswer: LatencySummary
    /// Finished transfers whose final event arrived; decline calls that failed.
    let arrived: Int
    let finishErrors: [String: Int]
    /// Streams that ended or failed without their final version, by reason; versions out of order.
    let streamFailures: [String: Int]
    let disorders: Int
    let keepAlives: Int

    /// The report as console tables.
    func render() -> String {
        var setup = TextTable("streams", "value")
        setup.add("engine", engine)
        setup.add("streams open / with first event / ready", "\(streams) / \(streamsWithFirstEvent) / \(streamsReady)")
        setup.add("payers", "\(payers)")
        setup.add(
            "create / open / ready s",
            "\(Figure.fixed(createSeconds)) / \(Figure.fixed(openSeconds)) / \(Figure.fixed(readySeconds))")
        setup.add("server RSS / peak MB", "\(Figure.fixed(serverResidentMB)) / \(Figure.fixed(serverPeakResidentMB))")
        setup.add("bench RSS MB", Figure.fixed(benchResidentMB))
        setup.add("idle server CPU (cores, \(Figure.fixed(idleSeconds)) s)", Figure.fixed(idleServerCores, 3))
        setup.add("finished / arrived", "\(finished) / \(arrived)")
        setup.add("keep-alives / out of order", "\(keepAlives) / \(disorders)")
        var latency = TextTable("final version → client, ms", "count", "p50", "p90", "p99", "max")
        for summary in [fromSend, fromAnswer] {
            latency.add(
                summary.name, "\(summary.count)", Figure.fixed(summary.p50, 2), Figure.fixed(summary.p90, 2),
                Figure.fixed(summary.p99, 2), Figure.fixed(summary.max, 2))
        }
        var lines = [setup.render(), "", latency.render()]
        for (reason, count) in finishErrors.sorted(by: { $0.key < $1.key }) {
            lines.append("decline failed \(count)×: \(reason)")
        }
        for (reason, count) in streamFailures.sorted(by: { $0.key < $1.key }) {
            lines.append("stream ended early \(count)×: \(reason)")
        }
        return lines.joined(separator: "\n")
    }
}
