/// Percentiles of one kind of call's latency, in milliseconds.
struct LatencySummary: Codable, Sendable {
    /// The call, and how many samples the percentiles are over.
    let name: String
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let mean: Double

    /// Summarises `milliseconds` (nearest-rank percentiles; all zero when there are no samples).
    init(name: String, milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        func percentile(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
        }
        self.name = name
        self.count = sorted.count
        self.p50 = percentile(0.50)
        self.p90 = percentile(0.90)
        self.p99 = percentile(0.99)
        self.max = sorted.last ?? 0
        self.mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }
}
