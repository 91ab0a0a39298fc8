import Foundation

/// What a result was measured on, written with every result file so figures are never quoted
/// without their machine.
struct MachineInfo: Codable, Sendable {
    /// Online CPUs, as `nproc` counts them.
    let cpus: Int
    /// `model name` from /proc/cpuinfo.
    let cpuModel: String
    /// Kernel release from uname.
    let kernel: String
    /// When the run started, ISO 8601 UTC.
    let date: String
    /// The 1-minute load average when the run started: other work on a 2-core machine skews
    /// every figure, so a result with a load far above zero should be rerun.
    let loadAverage: Double

    /// The machine this process runs on, now.
    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(
            cpus: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, kernel: release,
            date: ISO8601DateFormatter().string(from: Date()), loadAverage: loadAverage()
        )
    }

    /// One line for the console.
    var summary: String {
        "\(cpus) CPU(s), \(cpuModel), Linux \(kernel), \(date), load \(String(format: "%.2f", loadAverage))"
    }

    private static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}
