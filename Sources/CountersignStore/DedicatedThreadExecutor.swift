import Foundation

/// A task executor backed by one thread of its own.
///
/// The SQLite writer runs its batches here: each transaction body and the `COMMIT`, which blocks on
/// `fsync`, run on this thread rather than on the two threads of Swift's cooperative pool, where a
/// blocked thread would stall request handling and each resumption would queue behind it.
///
/// The thread starts with the first job and ends after `idleSeconds` without one; the next job
/// starts a new thread. So an executor needs no shutdown, and a process that opens many stores
/// (the tests) does not keep a thread for each.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let name: String
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var threadRunning = false
    static let idleSeconds: TimeInterval = 5

    /// `name` is the thread's (visible in `top -H` and profiles; Linux keeps 15 characters).
    init(name: String) {
        self.name = name
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let startThread = !threadRunning
        threadRunning = true
        condition.signal()
        condition.unlock()
        if startThread {
            Thread { [self, name] in
                Thread.current.name = name
                runLoop()
            }.start()
        }
    }

    private func runLoop() {
        var running: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty {
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
                if !signalled, jobs.isEmpty {
                    threadRunning = false
                    condition.unlock()
                    return
                }
            }
            swap(&running, &jobs)
            condition.unlock()
            for job in running { job.runSynchronously(on: asUnownedTaskExecutor()) }
            running.removeAll(keepingCapacity: true)
        }
    }
}
