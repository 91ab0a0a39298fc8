import CountersignStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This server process, as its idempotency claims name it: a random id made at start, and where
/// the process can be found (pid, PID namespace) so that a later process on the same machine can
/// tell that it is gone without waiting for its lease to lapse.
package struct ServerInstance: Sendable, Equatable {
    package let id: String
    package let pid: Int64
    package let pidNamespace: String?

    package init(id: String, pid: Int64, pidNamespace: String?) {
        self.id = id
        self.pid = pid
        self.pidNamespace = pidNamespace
    }

    /// A new identity for the running process.
    package static func current() -> ServerInstance {
        ServerInstance(id: Identifier.make("inst"), pid: Int64(getpid()), pidNamespace: currentPIDNamespace)
    }

    /// The boot and PID namespace of this process (Linux): a pid is only meaningful within one, so
    /// containers that share a hostname but not a PID namespace never judge each other's pids.
    /// Nil elsewhere: leases alone decide.
    package static let currentPIDNamespace: String? = {
        #if os(Linux)
            guard let boot = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
                let namespace = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")
            else { return nil }
            return boot.trimmingCharacters(in: .whitespacesAndNewlines) + "/" + namespace
        #else
            return nil
        #endif
    }()

    /// A process that has not renewed its lease for this long is gone: ten minutes is far beyond any
    /// stall, and beyond the sweeper's own two-minute rule for pending top-ups.
    package static let retireLapsedAfterMillis: Int64 = 10 * 60 * 1000

    /// Whether a process with this pid exists (in this PID namespace). A recycled pid reads as
    /// running, which only means falling back to the lease.
    package static func isRunning(pid: Int64) -> Bool {
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        return kill(pid_t(pid), 0) == 0 || errno == EPERM
    }

    /// The instances among `others` that cannot be running when this one starts: on embedded SQLite
    /// every other one (one serving process per file); on PostgreSQL those in this PID namespace
    /// whose process is gone (or whose pid is now this process's), and those whose lease lapsed over
    /// `Self.retireLapsedAfterMillis` ago. (A lease lapsed more recently already frees its unlinked
    /// claims; retiring also lets the sweeper settle its debits, which needs certainty.)
    package func deadAtStartUp(_ others: [ServerInstanceRecord], engine: DatabaseEngine, now: Int64) -> [String] {
        others.filter { other in
            guard other.id != id else { return false }
            if engine == .sqlite || other.leaseExpiresAt <= now - Self.retireLapsedAfterMillis { return true }
            guard let namespace = other.pidNamespace, namespace == pidNamespace else { return false }
            return other.pid == pid || !Self.isRunning(pid: other.pid)
        }.map(\.id)
    }
}
