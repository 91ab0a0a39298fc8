import Foundation

/// A task executor that runs its jobs on one thread of its own, so a task that prefers it may
/// block that thread (on a socket) without taking a thread from the shared pool.
///
/// Each bench client runs its flows in a task that prefers one of these: the SDK's async calls
/// then run straight through on that thread, and `LoopbackSocketTransport` does its blocking
/// `send` and `recv` there, with no hop to another thread and no task resumption per request.
/// `@unchecked Sendable`: `jobs` and `stopped` are guarded by `condition`.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts the thread, named `name` for debuggers and `top -H`.
    init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.start()
    }

    /// Queues `job` for the thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `operation` in a task that prefers this executor, and returns its result.
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(executorPreference: self, operation: operation).value
    }

    /// Lets the thread end once the jobs queued so far have run.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
