import ArgumentParser
import Foundation

/// `countersign-bench verifier`: the assertion verifier against the bare P-256 check it wraps.
struct VerifierCommand: ParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "verifier",
        abstract: "Verifications per second: raw P-256 vs AssertionVerifier (single thread, interleaved rounds)."
    )

    /// The verifier, with the key as the server gets it, should cost at most ~5% over the signature
    /// check it wraps.
    static let targetRatio = 0.95

    @Option(help: "Seconds per row, split into interleaved rounds of --round-seconds; the median round is reported.")
    var seconds = 5.0

    @Option(name: .customLong("round-seconds"), help: "Length of one round in seconds.")
    var roundSeconds = 0.25

    @Flag(name: .customLong("no-breakdown"), help: "Skip timing the verifier's steps one by one.")
    var noBreakdown = false

    @Option(help: "Where to write the JSON results.")
    var json = ResultFile.defaultPath(mode: "verifier")

    /// What `--json` receives.
    struct Report: Codable {
        let machine: MachineInfo
        let rounds: Int
        let roundSeconds: Double
        let rows: [OperationRate]
        let breakdown: [OperationRate]
        let targetRatio: Double
        /// The verifier with the key parsed once over raw, and with the key from the server's cache.
        let ratio: Double
        let ratioAsServer: Double
        let targetMet: Bool
    }

    /// Refuses empty or unbounded runs.
    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard roundSeconds > 0, roundSeconds <= seconds else {
            throw ValidationError("--round-seconds must be in (0, --seconds]")
        }
    }

    /// Rounds per row.
    var rounds: Int { max(1, Int((seconds / roundSeconds).rounded())) }

    /// Times the rows and the breakdown, prints them, and writes the report.
    func run() throws {
        let machine = MachineInfo.current()
        Console.say(
            "verifier benchmark: \(rounds) interleaved rounds × \(roundSeconds) s per row, one thread, rates per thread-CPU second — \(machine.summary)"
        )
        let benchmark = try VerifierBenchmark()
        var rows = benchmark.contenders.interleaved(rounds: rounds, seconds: roundSeconds)
        let raw = rows[0].perSecond
        for index in rows.indices { rows[index].ofRaw = rows[index].perSecond / raw }
        let breakdown = noBreakdown ? [] : benchmark.breakdown.interleaved(rounds: rounds, seconds: roundSeconds / 4)

        var table = TextTable("operation", "median /s", "µs/op", "of raw", "rounds min–max /s")
        for row in rows {
            table.add(
                row.name, Figure.count(row.perSecond), Figure.fixed(row.microseconds, 2),
                Figure.fixed(row.ofRaw ?? 0, 3),
                "\(Figure.count(row.rounds.min() ?? 0))–\(Figure.count(row.rounds.max() ?? 0))")
        }
        print(table.render())
        if !breakdown.isEmpty {
            var steps = TextTable("verifier step (alone)", "median /s", "µs/op")
            for step in breakdown {
                steps.add(step.name, Figure.count(step.perSecond), Figure.fixed(step.microseconds, 2))
            }
            print("\n" + steps.render())
        }
        let ratio = rows[1].ofRaw ?? 0
        let asServer = rows[2].ofRaw ?? 0
        let met = min(ratio, asServer) >= Self.targetRatio
        print(
            "\nverifier / raw = \(Figure.fixed(ratio, 3)) (as the server, key from its cache: \(Figure.fixed(asServer, 3))); target ≥ \(Self.targetRatio) for both: \(met ? "met" : "MISSED")"
        )
        try ResultFile.write(
            Report(
                machine: machine, rounds: rounds, roundSeconds: roundSeconds, rows: rows, breakdown: breakdown,
                targetRatio: Self.targetRatio, ratio: ratio, ratioAsServer: asServer, targetMet: met),
            to: json
        )
    }
}
