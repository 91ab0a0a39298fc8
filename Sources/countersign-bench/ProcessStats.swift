import Foundation

/// Memory and CPU figures of a process, read from Linux's /proc.
struct ProcessStats: Sendable {
    /// Peak resident set size (VmHWM), in MiB.
    let peakResidentMB: Double
    /// Current resident set size (VmRSS), in MiB.
    let residentMB: Double
    /// User and system CPU time used so far, in seconds.
    let userSeconds: Double
    let systemSeconds: Double

    /// User plus system CPU time.
    var cpuSeconds: Double { userSeconds + systemSeconds }

    /// The figures of `pid` now, or nil if it has gone.
    static func read(pid: Int32) -> ProcessStats? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        else { return nil }
        func kilobytes(_ field: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            return Double(line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        // proc(5): the command name in field 2 may hold spaces, so count fields after its ')'.
        // utime and stime are fields 14 and 15, i.e. the 12th and 13th after the ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ProcessStats(
            peakResidentMB: kilobytes("VmHWM") / 1024, residentMB: kilobytes("VmRSS") / 1024,
            userSeconds: user / ticks, systemSeconds: system / ticks
        )
    }

    /// This process's own CPU time so far (user, system), from getrusage.
    static func ownCPUSeconds() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }
}
