import Foundation

/// Single-threaded rate measurement: runs one operation back to back for a fixed time.
///
/// Rates are per second of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not of wall time:
/// on a shared 2-core machine another process's burst preempts the bench, and wall time would
/// count that as the operation being slow.
enum Throughput {
    /// How many operations run between two clock reads; an operation costs microseconds, a clock
    /// read well under one, so the timing overhead stays far below 1%.
    static let batch = 16

    /// Runs `operation` repeatedly on the calling thread for about `seconds` of wall time and
    /// returns operations per second of thread CPU time. Every call must return true: a false
    /// means the benchmark measures a failure path.
    static func measure(seconds: Double, _ operation: () -> Bool) -> Double {
        let wallLimit = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let cpuStart = threadCPUNanoseconds()
        var count = 0
        repeat {
            for _ in 0..<batch {
                guard operation() else { fatalError("a timed operation failed; the fixture is wrong") }
            }
            count += batch
        } while DispatchTime.now().uptimeNanoseconds < wallLimit
        return Double(count) / (Double(threadCPUNanoseconds() - cpuStart) / 1e9)
    }

    /// CPU time this thread has used, in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
