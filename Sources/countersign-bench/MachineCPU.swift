import Foundation

/// Whole-machine CPU counters from /proc/stat, so a run shows what every process used — the
/// server, the bench, and a PostgreSQL server's backends, which are processes of their own.
struct MachineCPU: Sendable {
    /// Jiffies spent busy (user, nice, system, irq, softirq, steal), idle, and waiting on I/O.
    let busy: Double
    let idle: Double
    let ioWait: Double

    /// The counters now (all zero if /proc/stat is unreadable).
    static func now() -> MachineCPU {
        let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        // proc(5): "cpu  user nice system idle iowait irq softirq steal guest guest_nice".
        let fields =
            text.split(separator: "\n").first?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        guard fields.count >= 8 else { return MachineCPU(busy: 0, idle: 0, ioWait: 0) }
        return MachineCPU(
            busy: fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7], idle: fields[3],
            ioWait: fields[4])
    }

    /// Busy and I/O-wait time between `earlier` and now, in CPUs (cores kept busy on average).
    func since(_ earlier: MachineCPU, cpus: Int) -> (busyCores: Double, ioWaitCores: Double) {
        let total = (busy - earlier.busy) + (idle - earlier.idle) + (ioWait - earlier.ioWait)
        guard total > 0 else { return (0, 0) }
        let scale = Double(cpus) / total
        return ((busy - earlier.busy) * scale, (ioWait - earlier.ioWait) * scale)
    }
}
