/// Something the verifier benchmark times: a label and one call that must return true.
struct TimedOperation {
    /// The row label.
    let name: String
    /// One call; it must return true (false means the fixture is wrong).
    let run: () -> Bool
}

/// The measured rate of one operation: the median of interleaved rounds.
struct OperationRate: Codable, Sendable {
    /// The row label.
    let name: String
    /// Median operations per second over the rounds.
    let perSecond: Double
    /// Microseconds per operation at the median rate.
    let microseconds: Double
    /// Each round's rate, in the order run.
    let rounds: [Double]
    /// This rate over the raw signature check's (1.0 for the raw row; nil in the breakdown).
    var ofRaw: Double?
}

extension Array where Element == TimedOperation {
    /// Times every operation `rounds` times for `seconds` each, interleaved, rotating the starting
    /// operation every round so none always runs first (after the others have warmed caches or
    /// the CPU clock).
    func interleaved(rounds: Int, seconds: Double) -> [OperationRate] {
        var samples = [[Double]](repeating: [], count: count)
        for operation in self { _ = Throughput.measure(seconds: 0.05, operation.run) } // warm-up
        for round in 0..<rounds {
            for offset in 0..<count {
                let index = (round + offset) % count
                samples[index].append(Throughput.measure(seconds: seconds, self[index].run))
            }
        }
        return zip(self, samples).map { operation, rates in
            let median = Throughput.median(rates)
            return OperationRate(name: operation.name, perSecond: median, microseconds: 1e6 / median, rounds: rates)
        }
    }
}
